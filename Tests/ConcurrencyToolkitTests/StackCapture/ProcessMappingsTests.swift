@testable import ConcurrencyToolkit
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The test process links the whole toolkit, reports included: it has no
/// mapping that is both writable and executable (issue 38: the `Runtime`
/// library's `GNU_STACK … RWE` made every thread stack `rwx`).
@Suite struct ProcessMappingsTests {
    #if os(Linux)
    @Test func noWritableAndExecutableMapping() throws {
        // A capture and its symbolication first, so whatever they load is loaded.
        let lines = Symbolicator.reportLines(for: CurrentStack.capture(limit: 8), firstIsProgramCounter: false, limit: 8)
        #expect(lines.contains { $0.contains("ProcessMappingsTests") }, "\(lines)")
        let descriptor = open("/proc/self/maps", O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        let maps = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        let writableAndExecutable = maps.filter { $0.split(separator: " ").dropFirst().first?.hasPrefix("rwx") == true }
        #expect(writableAndExecutable.isEmpty, "\(writableAndExecutable)")
        #expect(!maps.contains { $0.contains("libswiftRuntime") }, "the Runtime library is not loaded")
    }
    #endif
}
