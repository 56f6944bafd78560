import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Testing

#if os(macOS) || os(Linux)  // exit tests: Apple's other platforms have none
/// A detector's threshold of zero or less stops the process with a message,
/// in release builds too; one below the floor is raised to it with one
/// warning, so an idle program gets no noise reports (issue 39, item 4:
/// `.zero`, `-5 ms` and `100 µs` were clamped silently to 1 ms, and an idle
/// program then got 3–6 "stalls" of 1–4 ms in 3 s).
extension PreconditionMessageTests {
    @Test func stallThresholdOfZero() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            StallDetector.start(threshold: .zero)
        }
        let text = standardError(of: result)
        #expect(text.contains("StallDetector.start(threshold: 0.0 seconds): threshold must be more than zero"), "\(text)")
    }

    @Test func stallThresholdBelowZero() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            StallDetector.start(threshold: .milliseconds(-5))
        }
        let text = standardError(of: result)
        #expect(text.contains("StallDetector.start(threshold: -0.005 seconds): threshold must be more than zero"), "\(text)")
    }

    @Test func contentionThresholdOfZero() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ActorContentionDetector.start(threshold: .zero)
        }
        let text = standardError(of: result)
        #expect(text.contains("ActorContentionDetector.start(threshold: 0.0 seconds): threshold must be more than zero"), "\(text)")
    }

    /// The detector then runs at the floor: no report is shorter (on a busy
    /// machine a 10 ms wait for a CPU can still be reported; the host's share
    /// of a stall is another matter).
    @Test func stallThresholdBelowTheFloorWarnsOnceAndReportsNothingShorter() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            StallDetector.start(threshold: .microseconds(100))
            StallDetector.start(threshold: .microseconds(100))
            try? await Task.sleep(for: .seconds(2))
            StallDetector.stop()
        }
        let text = standardError(of: result)
        let warning = "is below its floor of 0.01 seconds; using 0.01 seconds"
        #expect(text.split(separator: "\n").filter { $0.contains(warning) }.count == 1, "\(text)")
        let lengths = text.split(separator: "\n").filter { $0.hasPrefix("CONCURRENCY STALL:") }.compactMap { line in
            line.split(separator: " ").firstIndex(of: "ms").flatMap { Int(line.split(separator: " ")[$0 - 1]) }
        }
        #expect(lengths.allSatisfy { $0 >= 10 }, "\(text)")
    }
}
#endif
