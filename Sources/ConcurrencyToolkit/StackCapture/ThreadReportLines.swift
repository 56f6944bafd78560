#if os(Linux)
extension Symbolicator {
    /// Another thread's captured stack (the interrupted instruction first,
    /// then return addresses) as report lines. For a thread asleep in system
    /// call `systemCall`, the first line names the C library function the
    /// code called and the call: `blocked in usleep (system call clock_nanosleep)`.
    static func threadLines(of addresses: [UInt], systemCall: Int? = nil, limit: Int = 16) -> [String] {
        guard !addresses.isEmpty else { return [] }
        var lines = reportLines(for: addresses, firstIsProgramCounter: true, limit: limit)
        if let systemCall {
            let called = SystemCalls.calledFunction(in: addresses) ?? "a system call"
            lines.insert("blocked in \(called) (system call \(SystemCalls.name(systemCall)))", at: 0)
        }
        return lines
    }
}
#endif
