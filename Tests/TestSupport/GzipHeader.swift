import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The fields of a gzip member's header (RFC 1952) the tests check.
package struct GzipHeader: Equatable {
    package var flags: UInt8
    package var modificationTime: UInt32
    /// The FNAME bytes (without the terminating zero), if FLG.FNAME is set.
    package var name: [UInt8]?

    package init(flags: UInt8, modificationTime: UInt32, name: [UInt8]?) {
        self.flags = flags
        self.modificationTime = modificationTime
        self.name = name
    }

    /// Parses the header at the start of `data`; `nil` if it is not gzip.
    package init?(_ data: Data) {
        let bytes = [UInt8](data)
        guard bytes.count >= 10, bytes[0] == 0x1F, bytes[1] == 0x8B, bytes[2] == 8 else { return nil }
        flags = bytes[3]
        modificationTime = (0..<4).reduce(0) { $0 | UInt32(bytes[4 + $1]) << (8 * $1) }
        var offset = 10
        if flags & 0x04 != 0 {  // FEXTRA
            guard bytes.count >= offset + 2 else { return nil }
            offset += 2 + Int(bytes[offset]) + Int(bytes[offset + 1]) << 8
        }
        if flags & 0x08 != 0 {
            guard let end = bytes[offset...].firstIndex(of: 0) else { return nil }
            name = Array(bytes[offset..<end])
        }
    }

    /// The header of the `.gz` at `path`.
    package init?(path: String) throws {
        self.init(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

/// Sets the access and modification times of `path` (seconds, nanoseconds).
package func setTimes(_ path: String, access: (Int, Int), modification: (Int, Int)) throws {
    var times = [
        timespec(tv_sec: access.0, tv_nsec: access.1), timespec(tv_sec: modification.0, tv_nsec: modification.1),
    ]
    guard utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0 else {
        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}

/// `lstat` of `path`, or a thrown error.
package func fileStatus(_ path: String) throws -> stat {
    var info = stat()
    guard lstat(path, &info) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    return info
}
