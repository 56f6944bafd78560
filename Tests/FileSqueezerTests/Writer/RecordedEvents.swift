@testable import FileSqueezerCore
import TestSupport

/// Records what compression reports, from any thread.
final class RecordedEvents: CompressionEvents {
    struct Step: Sendable, Equatable {
        let previous: Int64
        let total: Int64
    }

    private let steps = Locked<[Int: [Step]]>([:])
    private let outcomes = Locked<[Int: [FileOutcome]]>([:])
    private let unread = Locked<[Int: [Int64]]>([:])

    func progress(file: Int, total: Int64, previous: Int64) {
        steps.withLock { $0[file, default: []].append(Step(previous: previous, total: total)) }
    }

    func finished(file: Int, outcome: FileOutcome, unread: Int64) {
        outcomes.withLock { $0[file, default: []].append(outcome) }
        self.unread.withLock { $0[file, default: []].append(unread) }
    }

    func progress(of file: Int) -> [Step] { steps.withLock { $0[file] ?? [] } }
    func outcomes(of file: Int) -> [FileOutcome] { outcomes.withLock { $0[file] ?? [] } }
    /// The `unread` of each outcome reported for `file`.
    func unread(of file: Int) -> [Int64] { unread.withLock { $0[file] ?? [] } }
    var anyProgress: Bool { steps.withLock { !$0.isEmpty } }
}

/// Records like ``RecordedEvents`` and then runs a hook after each progress
/// report: a test plays another worker from inside the drainer's write.
final class HookedEvents: CompressionEvents {
    let recorded = RecordedEvents()
    private let hook = Locked<(@Sendable () -> Void)?>(nil)

    func onProgress(_ body: @escaping @Sendable () -> Void) { hook.withLock { $0 = body } }

    func progress(file: Int, total: Int64, previous: Int64) {
        recorded.progress(file: file, total: total, previous: previous)
        hook.value?()
    }

    func finished(file: Int, outcome: FileOutcome, unread: Int64) {
        recorded.finished(file: file, outcome: outcome, unread: unread)
    }
}
