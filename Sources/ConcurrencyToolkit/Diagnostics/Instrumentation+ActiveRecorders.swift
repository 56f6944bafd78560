extension Instrumentation {
    /// Every recording running now, for events that belong to no task: a
    /// stall report, made on the detector's watchdog thread, goes into each.
    static let activeRecorders = Lock<(next: UInt64, recorders: [UInt64: TraceRecorder])>((0, [:]))

    /// Adds `recorder` while one of its `record` calls runs; returns the key to remove it.
    static func registerActive(_ recorder: TraceRecorder) -> UInt64 {
        activeRecorders.withLock { state in
            state.next += 1
            state.recorders[state.next] = recorder
            return state.next
        }
    }

    static func unregisterActive(_ key: UInt64) {
        activeRecorders.withLock { _ = $0.recorders.removeValue(forKey: key) }
    }

    /// Records `kind` in every active recording (after unlocking).
    static func emitToEveryRecording(_ kind: TraceEvent.Kind) {
        guard activeRecordings.load(ordering: .relaxed) != 0 else { return }
        let recorders = activeRecorders.withLock { Array($0.recorders.values) }
        for recorder in recorders { recorder.emit(kind) }
    }
}
