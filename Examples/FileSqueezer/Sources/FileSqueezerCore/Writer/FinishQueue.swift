import ConcurrencyToolkit

/// Files of several segments whose last segment is written, waiting for
/// their ending (size check, move into place, or removal): one task
/// finishes them while the compression jobs go on.
///
/// ```swift
/// let finishes = FinishQueue()
/// await withTaskGroup(of: Void.self) { group in
///     group.addTask {
///         while let file = await finishes.next() { file.finish() }
///     }
///     await segments.concurrentForEach(maxConcurrency: jobs) { ... }   // files call finishes.add(file)
///     finishes.close()
/// }
/// ```
///
/// Why not finish in the job that wrote the last segment: moving a `.gz`
/// into place can block for tens of milliseconds (on ext4, a rename over an
/// existing file, as `--force` does, first pushes the new file's data to the
/// disk), and a compression job waiting there is a core left idle. Files of
/// one segment (up to 1 MiB) still end in their job: for them the hop to this
/// task would cost more than it saves.
///
/// ``next()`` waits until a file is added or the queue is closed; it does
/// not end early when its task is cancelled, so no file is ever dropped.
final class FinishQueue: Sendable {
    private struct State {
        var files: [SegmentedFile] = []
        var closed = false
        var waiter: SafeContinuation<SegmentedFile?, Never>?
    }

    private let state = VisibleMutex(State())

    init() {}

    /// Queues `file` (from any thread).
    func add(_ file: SegmentedFile) {
        let waiter = state.withLock { state -> SafeContinuation<SegmentedFile?, Never>? in
            guard let waiter = state.waiter else {
                state.files.append(file)
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: file)
    }

    /// No more files will be added: ``next()`` returns `nil` once the queue is empty.
    func close() {
        let waiter = state.withLock { state in
            state.closed = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The next file, in the order added; `nil` once closed and empty. One
    /// consumer at a time.
    func next() async -> SegmentedFile? {
        await withSafeContinuation(ifLeaked: nil) { (continuation: SafeContinuation<SegmentedFile?, Never>) in
            let now = state.withLock { state -> SegmentedFile?? in
                if !state.files.isEmpty { return .some(state.files.removeFirst()) }
                if state.closed { return .some(nil) }
                precondition(state.waiter == nil, "FinishQueue has one consumer")
                state.waiter = continuation
                return .none
            }
            if let now { continuation.resume(returning: now) }
        }
    }
}
