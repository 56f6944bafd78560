extension BlockingExecutor: TaskExecutor {
    /// Runs a slice of a task on a lane; this is what makes
    /// `withTaskExecutorPreference` work. You do not call it yourself.
    ///
    /// ```swift
    /// let digest = await withTaskExecutorPreference(io) {
    ///     await hashFile(at: path)   // a nonisolated async func: its slices run on io's lanes
    /// }
    /// ```
    ///
    /// Slices share the FIFO and the lanes with `run` jobs. A task cannot be
    /// dropped without hanging it, so after ``shutdown(function:fileID:line:)`` (and for slices
    /// queued when it is called) the slice runs on the global concurrent
    /// executor instead: the task goes on, just not on this executor's threads.
    ///
    /// Pitfall (SE-0417): the preference does not move code that is isolated
    /// to an actor. A *synchronous* closure called from `@MainActor` code under
    /// the preference still runs on the main actor. Use ``run(isolation:function:fileID:line:_:)-(_,_,_,_,(JobContext)->T)``
    /// for blocking calls: it always leaves the caller's actor.
    public func enqueue(_ job: consuming ExecutorJob) {
        let slice = UnownedJob(job)
        if !submit(slice) { Self.runElsewhere(slice) }
    }

    static func runElsewhere(_ slice: UnownedJob) {
        globalConcurrentExecutor.enqueue(ExecutorJob(slice))
    }
}
