#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The names of named temporary files: `.squeeze-<pid>-<n>`, short whatever
/// the destination's length, and recognisable as ours and as stale (the
/// writer's process id is in it).
///
/// ```swift
/// let name = TemporaryName.next()                       // ".squeeze-4242-17"
/// TemporaryName.writer(of: name) == getpid()            // true
/// TemporaryName.isOurs(Array(".squeeze-1-2".utf8))       // true
/// ```
enum TemporaryName {
    static let prefix = Array(".squeeze-".utf8)
    private static let counter = Atomic<Int>(0)

    /// A name no other temporary of this process has.
    static func next() -> [UInt8] {
        let number = counter.add(1, ordering: .relaxed).newValue
        return prefix + Array("\(getpid())-\(number)".utf8)
    }

    /// The process id in a name of ours, or `nil` for any other name.
    static func writer(of name: [UInt8]) -> pid_t? {
        guard name.starts(with: prefix) else { return nil }
        let parts = name.dropFirst(prefix.count).split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 10 && $0.allSatisfy { (0x30...0x39).contains($0) } }),
              let pid = Int32(String(decoding: parts[0], as: UTF8.self)), pid > 0
        else { return nil }
        return pid
    }

    static func isOurs(_ name: [UInt8]) -> Bool { writer(of: name) != nil }

    /// `.NAME.gz.squeeze-XXXXXX`, the temporaries of earlier builds: left
    /// alone (their writer is unknown).
    static func isLegacy(_ name: [UInt8]) -> Bool {
        name.first == UInt8(ascii: ".") && FileName.display(name).contains(".gz.squeeze-")
    }
}
