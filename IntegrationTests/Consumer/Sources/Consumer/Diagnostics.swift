import ConcurrencyToolkit

/// Recording what the toolkit did, and exporting it as the README shows.
func checkDiagnostics() async throws {
    let io = BlockingExecutor(width: 2, label: "consumer-trace")
    let (total, trace) = try await withTraceRecording {
        let parts = try await Array(1...4).concurrentMap(maxConcurrency: 2) { number in
            try await io.run { span("square \(number)") { slowSquare(number) } }
        }
        marker("all squared")
        return parts.reduce(0, +)
    }
    await io.shutdown()
    check(total == 30, "traced work returned \(total)")
    let json = trace.chromeTraceJSON()
    check(json.contains("square 3"), "the Chrome trace names the user's span")
    check(trace.svgTimeline().contains("<svg"), "an SVG timeline")
    check(!trace.summary().isEmpty, "a text summary")
    print("consumer (\(consumerMode)): a trace of \(json.utf8.count) bytes names the user's spans")
}
