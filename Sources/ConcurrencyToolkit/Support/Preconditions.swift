/// Stops the process with `message` when `condition` is false, in release
/// builds too.
///
/// `precondition` drops its message under `-O`: a user's release build
/// stopped with `Swift runtime failure: precondition failure` at
/// `<compiler-generated>` and no word on what was wrong. `fatalError` keeps its
/// message in every build but `-Ounchecked`, so every check of a caller's
/// argument goes through here. The message names the API, the parameter, the
/// value given and the valid range.
@inline(__always)
func checkPrecondition(
    _ condition: Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    if !condition { preconditionViolated(message(), file: file, line: line) }
}

@inline(never)
func preconditionViolated(_ message: String, file: StaticString, line: UInt) -> Never {
    fatalError(message, file: file, line: line)
}
