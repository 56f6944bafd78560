import Foundation
import Testing
import TestSupport

extension EndToEnd {
    /// Linking the toolkit leaves the process as it was (issue 38): the
    /// toolchain's `Runtime` library, which every report used to load, asks
    /// for an executable stack (`GNU_STACK … RWE`), and glibc then made every
    /// thread's stack `rwx`. The built binary loads no such library, and a
    /// running one has no mapping that is writable and executable.
    @Suite("End to end: the process the toolkit links into")
    struct ProcessHygieneTests {
        #if os(Linux)
        @Test("the binary and every library it loads ask for no executable stack")
        func noExecutableStackRequested() throws {
            let binary = SqueezerProcess.binary.path
            let libraries = try Self.loadedLibraries(of: binary)
            #expect(!libraries.contains { $0.contains("libswiftRuntime") }, "\(libraries)")
            #expect(libraries.contains { $0.contains("libswiftCore") }, "ldd found the libraries: \(libraries)")
            for path in [binary] + libraries {
                #expect(try Self.asksForExecutableStack(path) == false, "\(path) has GNU_STACK with PF_X")
            }
        }

        @Test("a running file-squeezer has no writable and executable mapping")
        func noWritableExecutableMappingWhileRunning() throws {
            let scratch = try Scratch()
            try scratch.file("in/a.txt", DuringRunTests.slowFile(megabytes: 32))
            let (process, out, err) = try SqueezerProcess.start(["--level", "9", "-q", scratch.path + "/in"], in: scratch)
            var maps = ""
            // Read while it runs, mid-file: its threads and their stacks exist
            // then. A /proc file reads as empty through APIs that trust its
            // size (0), so it is read to its end.
            _ = DuringRunTests.waitForTemporaryFile(in: scratch.path + "/in", process: process)
            for _ in 0..<500 where process.isRunning {
                let read = FileHandle(forReadingAtPath: "/proc/\(process.processIdentifier)/maps")
                let text = String(decoding: (try? read?.readToEnd()) ?? Data(), as: UTF8.self)
                try? read?.close()
                if !text.isEmpty { maps = text }
                if maps.contains("[stack]") && maps.split(separator: "\n").count > 20 { break }
                usleep(10_000)
            }
            process.waitUntilExit()
            let run = try SqueezerProcess.collect(process, out, err)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(!maps.isEmpty, "the run ended before its maps were read")
            let writableAndExecutable = maps.split(separator: "\n").filter { $0.split(separator: " ").dropFirst().first?.hasPrefix("rwx") == true }
            #expect(writableAndExecutable.isEmpty, "\(writableAndExecutable)")
        }

        /// The libraries `ldd` lists for `binary`, as paths.
        static func loadedLibraries(of binary: String) throws -> [String] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
            process.arguments = [binary]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return output.split(separator: "\n").compactMap { line in
                line.split(separator: " ").first { $0.hasPrefix("/") }.map(String.init)
            }
        }

        /// Whether the ELF file's `PT_GNU_STACK` header has `PF_X`.
        static func asksForExecutableStack(_ path: String) throws -> Bool {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            func integer(_ offset: Int, _ size: Int) -> UInt64 {
                (0..<size).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
            }
            guard bytes.count > 64, bytes[0..<4] == [0x7F, 0x45, 0x4C, 0x46] else { return false }
            let (offset, size, count) = (Int(integer(0x20, 8)), Int(integer(0x36, 2)), Int(integer(0x38, 2)))
            for index in 0..<count where offset + index * size + 8 <= bytes.count {
                let header = offset + index * size
                if integer(header, 4) == 0x6474_E551 { return integer(header + 4, 4) & 1 != 0 }  // PT_GNU_STACK, PF_X
            }
            return false
        }
        #endif
    }
}
