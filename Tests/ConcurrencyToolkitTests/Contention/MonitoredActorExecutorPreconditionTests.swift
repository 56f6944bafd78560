import ConcurrencyToolkit
import Testing

#if os(macOS) || os(Linux)  // exit tests: Apple's other platforms have none
/// An isolation check off the actor stops with the actor's label, in release
/// builds too (the suite is Support/PreconditionMessageTests.swift).
extension PreconditionMessageTests {
    @Test func monitoredExecutorIsolationCheckedOffTheActor() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            MonitoredActorExecutor(label: "Cache").checkIsolated()
        }
        let text = standardError(of: result)
        #expect(text.contains("not running on the actor of MonitoredActorExecutor 'Cache'"), "\(text)")
    }
}
#endif
