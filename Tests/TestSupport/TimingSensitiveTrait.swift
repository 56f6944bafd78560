import Testing

/// Runs a suite alone among the suites that carry this trait, across the
/// whole test target.
///
/// Swift Testing runs suites in parallel. On a 2-core machine a suite that
/// floods the CPU (a million reports, 100,000 racing continuations) delays
/// every other thread by seconds, which a suite measuring time (a heartbeat's
/// lateness, 32 blocking jobs side by side, a timer's accuracy) would report
/// as a regression it is not. Suites that measure time or load the machine
/// take this gate; light suites keep running in parallel beside them.
///
/// ```swift
/// @Suite(.timingSensitive) struct BlockingExecutorLoadTests { ... }
/// ```
package struct TimingSensitiveTrait: SuiteTrait, TestScoping {
    package var isRecursive: Bool { false }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await TimingGate.shared.exclusively(function)
    }
}

extension Trait where Self == TimingSensitiveTrait {
    /// Runs the suite alone among suites that measure time or load the machine.
    package static var timingSensitive: Self { Self() }
}

/// A first-come, first-served async lock: one suite inside at a time.
private actor TimingGate {
    package static let shared = TimingGate()
    private var isBusy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    package func exclusively(_ body: @Sendable () async throws -> Void) async throws {
        if isBusy {
            await withCheckedContinuation { waiting.append($0) }  // handed the gate by the leaver
        } else {
            isBusy = true
        }
        defer {
            if waiting.isEmpty { isBusy = false } else { waiting.removeFirst().resume() }
        }
        try await body()
    }
}
