/// The language mode this build was made in, for the log lines.
#if swift(>=6)
let consumerMode = "Swift 6 language mode"
#else
let consumerMode = "Swift 5 language mode"
#endif

/// Stops the consumer with `message` when `condition` is false. A `precondition`
/// would drop the message in a release build; this never does.
nonisolated func check(_ condition: Bool, _ message: @autoclosure () -> String,
           fileID: String = #fileID, line: Int = #line) {
    if !condition { fatalError("consumer check failed at \(fileID):\(line): \(message())") }
}
