import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Files whose names are bytes that need not be UTF-8 (Foundation's APIs
/// take `String` paths and cannot name them), for the tests of names.
package enum RawFS {
    /// `scratch`'s path followed by `relative`'s bytes.
    package static func path(_ scratch: Scratch, _ relative: [UInt8]) -> [UInt8] {
        Array(scratch.path.utf8) + [UInt8(ascii: "/")] + relative
    }

    package static func withPath<Result>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        (path + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) } }
    }

    package static func writeFile(_ path: [UInt8], _ data: Data) {
        let descriptor = withPath(path) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        precondition(descriptor >= 0, "cannot create \(String(decoding: path, as: UTF8.self)): \(errno)")
        data.withUnsafeBytes { _ = write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }

    package static func makeFolder(_ path: [UInt8]) {
        precondition(withPath(path) { mkdir($0, 0o755) } == 0)
    }

    package static func readFile(_ path: [UInt8]) -> Data? {
        let descriptor = withPath(path) { open($0, O_RDONLY) }
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { return data }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    /// The names in a folder (not `.`, `..`), sorted bytewise.
    package static func list(_ path: [UInt8]) -> [[UInt8]] {
        guard let directory = withPath(path, { opendir($0) }) else { return [] }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != [0x2E], name != [0x2E, 0x2E] { names.append(name) }
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// What `gzip -dc` makes of the `.gz` at `path` (copied to a plain name first).
    package static func gunzip(_ path: [UInt8], scratch: Scratch) throws -> Data? {
        guard let compressed = readFile(path) else { return nil }
        let copy = scratch.url.appendingPathComponent(".copy-\(UUID().uuidString).gz")
        try compressed.write(to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        let result = try runTool("/usr/bin/gzip", ["-dc", copy.path])
        return result.status == 0 ? result.output : nil
    }
}

extension Array where Element == UInt8 {
    /// `"caf" + [0xE9] + ".txt"` reads better than a byte list.
    package static func + (left: String, right: [UInt8]) -> [UInt8] { Array(left.utf8) + right }
    package static func + (left: [UInt8], right: String) -> [UInt8] { left + Array(right.utf8) }
}
