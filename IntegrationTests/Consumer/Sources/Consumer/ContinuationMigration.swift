import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Dispatch
import Synchronization

// A user's migration from checked continuations, one word at a time: each
// form of the migration guide compiles with the rename alone, and reports
// name the user's lines.

/// A wrapper that does *not* pass its caller's site on, as most wrappers in
/// the wild: only the opt-in creation backtrace can name the caller.
nonisolated func legacyWait(_ run: @escaping @Sendable (SafeContinuation<Int, Never>) -> Void) async -> Int {
    await withSafeContinuation { continuation in run(continuation) }
}

/// A stored continuation property, as services keep one for a later event:
/// `CheckedContinuation<Void, any Error>?` became `SafeContinuation<Void, any Error>?`.
nonisolated final class ShutdownSignal: Sendable {
    private let waiter = Mutex<SafeContinuation<Void, any Error>?>(nil)

    func wait() async throws {
        try await withSafeThrowingContinuation { continuation in
            waiter.withLock { $0 = continuation }
        }
    }

    func signal() {
        waiter.withLock { $0.take() }?.resume()
    }

    var isWaiting: Bool { waiter.withLock { $0 != nil } }
}

nonisolated func checkContinuationMigration() async {
    // A non-throwing rename with no fallback, generic result.
    let number: Int = await withSafeContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: 5) }
    }
    check(number == 5, "the plain rename returned \(number)")

    // A Void continuation.
    await withSafeContinuation { continuation in
        DispatchQueue.global().async { continuation.resume() }
    }

    // A stored continuation property.
    let shutdown = ShutdownSignal()
    async let waited: Void = shutdown.wait()
    while !shutdown.isWaiting { await Task.yield() }
    shutdown.signal()
    do { try await waited } catch { check(false, "the stored continuation threw \(error)") }

    // The generic wrapper, used correctly: no report.
    let (value, clean) = await withContinuationMisuseRecorded {
        await withIdentifiableContinuation(body: { (c: IdentifiableContinuation<Int, Never>) in
            DispatchQueue.global().async { c.resume(returning: 42) }
        }, onCancel: { _ in })
    }
    check(value == 42 && clean.isEmpty, "the wrapper returned \(value) with \(clean.count) reports")

    // A double resume through the wrapper names the caller's lines.
    let creationLine = #line + 2
    let (_, misuses) = await withContinuationMisuseRecorded {
        await withIdentifiableContinuation(body: { (c: IdentifiableContinuation<Int, Never>) in
            c.resume(returning: 1)
            c.resume(returning: 2)  // the extra resume
        }, onCancel: { _ in })
    }
    let extraLine = creationLine + 2
    check(misuses.map(\.kind) == [.resumedMoreThanOnce], "expected one double resume, got \(misuses)")
    check(misuses.first?.creationSite.fileID == "Consumer/ContinuationMigration.swift"
            && misuses.first?.creationSite.line == creationLine,
          "the creation site should be the caller's line \(creationLine): \(misuses)")
    check(misuses.first?.resumeSite?.fileID == "Consumer/ContinuationMigration.swift"
            && misuses.first?.resumeSite?.line == extraLine,
          "the extra resume should be the caller's line \(extraLine): \(misuses)")

    // Through a wrapper that passes nothing on, the opt-in backtrace names the caller.
    ContinuationMisuse.capturesCreationBacktraces = true
    let (_, deep) = await withContinuationMisuseRecorded {
        await legacyWait { c in
            c.resume(returning: 1)
            c.resume(returning: 2)
        }
    }
    ContinuationMisuse.capturesCreationBacktraces = false
    let frames = deep.first?.creationBacktrace ?? []
    check(frames.contains { $0.contains("legacyWait") }
            && frames.contains { $0.contains("checkContinuationMigration") },
          "the creation backtrace should name the wrapper and its caller: \(frames)")
    print("consumer: the migrated forms compile and report the caller (\(misuses.first!.resumeSite!)), backtrace \(frames.prefix(2))")
}
