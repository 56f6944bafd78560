#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The names of named temporary files: `.squeeze-<pid>-<token>`, where the
/// token is 16 random hexadecimal digits (64 bits), so no one can guess a
/// name before it exists. Short whatever the destination's length (at most
/// 36 bytes), created with `O_EXCL`, and recognisable as ours and as stale
/// (the writer's process id is in it).
///
/// ```swift
/// let name = TemporaryName.next()                       // ".squeeze-4242-9f86d081884c7d65"
/// TemporaryName.writer(of: name) == getpid()            // true
/// TemporaryName.writer(of: Array(".squeeze-1-2".utf8))  // nil: not our shape
/// ```
///
/// The name's shape alone proves nothing (anyone can name a file so):
/// discovery removes one only after ``StaleTemporary`` checks the file too.
enum TemporaryName {
    static let prefix = Array(".squeeze-".utf8)
    static let tokenLength = 16

    /// A fresh name: this process's id and a random token.
    static func next() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let token = String(generator.next() as UInt64, radix: 16)
        let padded = String(repeating: "0", count: tokenLength - token.count) + token
        return prefix + Array("\(getpid())-\(padded)".utf8)
    }

    /// The process id in a name of exactly our shape (`.squeeze-`, 1 to 10
    /// decimal digits, `-`, 16 lowercase hexadecimal digits), or `nil`.
    static func writer(of name: [UInt8]) -> pid_t? {
        guard name.starts(with: prefix) else { return nil }
        let parts = name.dropFirst(prefix.count).split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard parts.count == 2, (1...10).contains(parts[0].count), parts[0].allSatisfy(isDigit),
              parts[1].count == tokenLength, parts[1].allSatisfy({ isDigit($0) || (0x61...0x66).contains($0) }),
              let pid = Int32(String(decoding: parts[0], as: UTF8.self)), pid > 0
        else { return nil }
        return pid
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}
