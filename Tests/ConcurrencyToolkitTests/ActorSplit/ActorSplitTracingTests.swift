import Testing

@testable import ConcurrencyToolkit
import TestSupport

/// The throttled reporters record each delivery (how many values it carried)
/// to the recording active where the reporter was created; `concurrentMap`
/// records each child with its element's index.
@Suite(.timeLimit(.minutes(2))) struct ActorSplitTracingTests {
    /// The `count` of each recorded delivery, in order, after checking that
    /// every delivery started also finished.
    private func deliveryCounts(_ trace: Trace, kind: TraceEvent.DeliveryKind) -> [Int] {
        let started = trace.events { if case .deliveryStarted = $0 { true } else { false } }
        var counts: [Int] = []
        for event in started {
            guard case .deliveryStarted(let recordedKind, let count) = event.kind else { continue }
            #expect(recordedKind == kind)
            #expect(trace.events(withID: event.id) == [event.kind, .deliveryFinished])
            counts.append(count)
        }
        return counts
    }

    @Test func progressDeliveriesAreRecordedOnePerHandlerCall() async {
        let delivered = Collected<Int>()
        let (_, trace) = await withTraceRecording {
            let progress = ThrottledProgress<Int>(interval: .zero) { delivered.append($0) }
            for value in 1...50 { progress.report(value) }
            await progress.finish()
        }
        #expect(delivered.values.last == 50)
        #expect(deliveryCounts(trace, kind: .progress) == Array(repeating: 1, count: delivered.values.count))
        #expect(trace.discardedEventCount == 0)
    }

    @Test func keyedDeliveriesCountTheKeysTheyCarry() async {
        let delivered = Collected<Int>()
        let (_, trace) = await withTraceRecording {
            let perFile = KeyedThrottledProgress<String, Int>(interval: .seconds(3600)) { delivered.append($0.count) }
            for (index, file) in ["a", "b", "c", "d", "a", "b"].enumerated() { perFile.report(index, for: file) }
            await perFile.finish()
        }
        #expect(delivered.values.reduce(0, +) >= 4)
        #expect(deliveryCounts(trace, kind: .progress) == delivered.values)
    }

    @Test func batchDeliveriesCountTheirItems() async {
        let delivered = Collected<Int>()
        let (_, trace) = await withTraceRecording {
            let log = BatchingReporter<String>(interval: .seconds(3600), capacity: 100) { lines in
                delivered.append(lines.count)
            }
            for line in 0..<30 { log.report("line \(line)") }
            await log.finish()
        }
        #expect(delivered.values.reduce(0, +) == 30)
        #expect(deliveryCounts(trace, kind: .batch) == delivered.values)
        #expect(trace.discardedEventCount == 0)
    }

    /// The recording is captured when the reporter is made, because reports
    /// come from any thread: a reporter made outside records nothing.
    @Test func reporterCreatedOutsideARecordingIsNotTraced() async {
        let progress = ThrottledProgress<Int>(interval: .zero) { _ in }
        let (_, trace) = await withTraceRecording {
            progress.report(1)
            await progress.finish()
        }
        #expect(deliveryCounts(trace, kind: .progress).isEmpty)
    }

    @Test func concurrentMapRecordsEachChildWithItsIndex() async {
        let (doubled, trace) = await withTraceRecording {
            await Array(10..<16).concurrentMap(maxConcurrency: 2) { value in
                marker("child for \(value)")
                return value * 2
            }
        }
        #expect(doubled == Array(10..<16).map { $0 * 2 })
        let started = trace.events { if case .childStarted = $0 { true } else { false } }
        #expect(Set(started.map(\.kind)) == Set((0..<6).map { TraceEvent.Kind.childStarted(index: $0) }))
        for child in started {
            #expect(trace.events(withID: child.id) == [child.kind, .childFinished])
        }
        // The children run in child tasks, which inherit the recording.
        #expect(Set(trace.markerNames) == Set((10..<16).map { "child for \($0)" }))
        #expect(trace.discardedEventCount == 0)
    }
}
