@testable import ConcurrencyToolkit
import Foundation

/// The toolchain's tools the DWARF tests check against: `clang` to build C
/// programs with known inlining, `llvm-symbolizer` as the reference answer.
enum DWARFTestTools {
    /// The first executable named `name` on `PATH` (or at /usr/bin), or nil.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init) + ["/usr/bin"]
        return directories.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `tool` with `arguments` (and `input` on standard input); its
    /// standard output, or nil when it could not run or exited non-zero.
    static func run(_ tool: String, _ arguments: [String], input: String = "") -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        let feed = Pipe()
        process.standardOutput = output
        process.standardInput = feed
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        feed.fileHandleForWriting.write(Data(input.utf8))
        try? feed.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// `llvm-symbolizer --inlines` of each address, as frames: its "??"
    /// names and files are nil, and line 0 is nil, as `DWARFImage` says them.
    static func symbolize(_ addresses: [UInt64], in binary: String, with symbolizer: String) -> [[DWARFFrame]]? {
        let input = addresses.map { "0x" + String($0, radix: 16) }.joined(separator: "\n") + "\n"
        guard let text = run(symbolizer, ["--inlines", "--no-demangle", "--obj=" + binary], input: input) else { return nil }
        let blocks = text.components(separatedBy: "\n\n").map { $0.split(separator: "\n").map(String.init) }
        return blocks.filter { !$0.isEmpty }.map { lines in
            stride(from: 0, to: lines.count - 1, by: 2).map { index in
                let location = lines[index + 1].split(separator: ":").map(String.init)
                let file = location.count >= 3 ? location.dropLast(2).joined(separator: ":") : lines[index + 1]
                let line = location.count >= 3 ? Int(location[location.count - 2]) : nil
                return DWARFFrame(
                    name: lines[index] == "??" ? nil : lines[index], file: file == "??" ? nil : file,
                    line: line == 0 ? nil : line, isInlined: index + 2 < lines.count)
            }
        }
    }
}
