import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Dispatch
import Testing
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An actor on a monitored executor with a slow method.
actor QueuedBehind {
    nonisolated let executor: MonitoredActorExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    init(label: String) { executor = MonitoredActorExecutor(label: label) }

    /// Holds the actor (a loop: a capture signal may end a `usleep` early).
    @inline(never)
    func holdTheActor(milliseconds: Int) {
        let end = DispatchTime.now().uptimeNanoseconds + UInt64(milliseconds) * 1_000_000
        while DispatchTime.now().uptimeNanoseconds < end { usleep(2_000) }
    }

    /// Five callers at once, each holding it `milliseconds`.
    static func queueFive(on actor: QueuedBehind, milliseconds: Int) async {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<5 { group.addTask { await actor.holdTheActor(milliseconds: milliseconds) } }
        }
    }
}

/// The recorder and the trait against real contention.
@Suite(.serialized, .timingSensitive) struct ActorContentionIsAnIssueTests {
    @Test func callersQueuedBehindASlowMethodAreRecorded() async {
        let actor = QueuedBehind(label: "RecorderTests.queued")
        let (value, contentions) = await withActorContentionRecorded(threshold: .milliseconds(60)) {
            await QueuedBehind.queueFive(on: actor, milliseconds: 40)
            return 42
        }
        #expect(value == 42)
        let ours = contentions.filter { $0.label == "RecorderTests.queued" }
        #expect(ours.count == 1, "\(contentions)")
        #expect((ours.first?.longestWait ?? .zero) >= .milliseconds(100), "\(contentions)")
    }

    @Test func aContentionDuringTheTestIsRecordedAsAnIssue() async throws {
        let test = try #require(Test.current)
        let actor = QueuedBehind(label: "TraitTests.queued")
        let ours = Counter()
        try await withKnownIssue {
            try await ActorContentionIsAnIssue(threshold: .milliseconds(60)).provideScope(for: test, testCase: nil) {
                await QueuedBehind.queueFive(on: actor, milliseconds: 40)
            }
        } matching: { issue in
            // Contention belongs to the process: a test running beside this
            // one may contend its own actor meanwhile, and that is an issue
            // here too. Each is known; ours must be among them.
            guard let contention = issue.error as? ActorContention else { return false }
            #expect(issue.sourceLocation == test.sourceLocation)
            if contention.label == "TraitTests.queued" { ours.increment() }
            return true
        }
        #expect(ours.count == 1)
        #expect(ActorContentionIsAnIssue().threshold == ActorContentionDetector.defaultThreshold)
    }
}

/// The failures the assertion records are intercepted while it runs, then
/// asserted on (``FailureInterceptingTestCase``).
final class XCTAssertNoActorContentionTests: FailureInterceptingTestCase {
    func testCallersQueuedBehindASlowMethodFailTheTest() async {
        intercepted = []
        let actor = QueuedBehind(label: "XCTestTests.queued")
        let value = await XCTAssertNoActorContention(threshold: .milliseconds(60), {
            await QueuedBehind.queueFive(on: actor, milliseconds: 40)
            return 7
        }, "loading")
        let failures = intercepted ?? []
        intercepted = nil
        XCTAssertEqual(value, 7)
        let ours = failures.filter { $0.contains("loading: actor XCTestTests.queued") }
        XCTAssertEqual(ours.count, 1, "\(failures)")
    }
}
