#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if os(Linux)
/// What Linux says about one thread of this process, read from
/// `/proc/self/task/TID/syscall` without touching the thread: either it is
/// running (on a CPU or ready to), or it sleeps in the kernel, and then in
/// which system call and with which user stack pointer and program counter.
///
/// A sleeping thread's user stack cannot change until the kernel returns to
/// it, so the stack capture reads it from memory
/// (``BlockedStackCapture``) instead of signalling the thread; reading the
/// file again afterwards says whether it slept the whole time.
enum ThreadStatus: Equatable {
    /// In user space, or runnable: a signal reaches it between two instructions.
    case running
    /// Asleep in the kernel. `number` is the system call (-1: asleep, but not
    /// in a system call, e.g. on a page fault).
    case blocked(BlockedCall)
    /// Gone, or the file cannot be read (no /proc): nothing is known.
    case unknown

    struct BlockedCall: Equatable {
        var number: Int
        var stackPointer: UInt
        var programCounter: UInt
    }

    /// Reads `/proc/self/task/<thread>/syscall`.
    static func of(thread: UInt64) -> ThreadStatus {
        guard let text = SmallFile.text(of: "/proc/self/task/\(thread)/syscall") else { return .unknown }
        return parse(syscallLine: text)
    }

    /// Parses the file's one line: `running`, or `NR ARG1 … ARG6 SP PC` (the
    /// number in decimal, the rest in hex with `0x`), or `NR SP PC` for a
    /// sleep outside a system call.
    static func parse(syscallLine text: String) -> ThreadStatus {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        if fields.first == "running" { return .running }
        guard fields.count >= 3, let number = Int(fields[0]),
            let stackPointer = hex(fields[fields.count - 2]), let programCounter = hex(fields[fields.count - 1])
        else { return .unknown }
        return .blocked(BlockedCall(number: number, stackPointer: stackPointer, programCounter: programCounter))
    }

    private static func hex(_ field: Substring) -> UInt? {
        guard field.hasPrefix("0x") else { return nil }
        return UInt(field.dropFirst(2), radix: 16)
    }
}
#endif
