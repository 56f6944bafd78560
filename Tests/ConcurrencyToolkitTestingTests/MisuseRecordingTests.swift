import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Testing
import TestSupport

@Suite struct MisuseRecordingTests {
    @Test func parallelRecordingsDoNotMix() async {
        await withTaskGroup(of: (Int, Int).self) { group in
            for n in 1...8 {
                group.addTask {
                    let (_, misuses) = await withContinuationMisuseRecorded {
                        await withSafeContinuation(ifLeaked: 0) { (c: SafeContinuation<Int, Never>) in
                            for _ in 0...n { c.resume(returning: n) }
                        }
                    }
                    return (n, misuses.count)
                }
            }
            for await (n, count) in group {
                #expect(count == n, "recording \(n) saw \(count) reports")
            }
        }
    }
}
