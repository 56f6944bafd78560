import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the built `file-squeezer` binary, the way swift-argument-parser tests
/// its examples: the binary sits next to the test bundle in the build
/// products folder (`swift build --build-tests` and `swift test` build it).
package struct SqueezerRun {
    package var status: Int32
    /// The bytes as written: names that are not UTF-8 are raw in messages.
    package var stdoutBytes: Data
    package var stderrBytes: Data
    /// The same, as text (bytes that are not UTF-8 shown as U+FFFD).
    package var stdout: String { String(decoding: stdoutBytes, as: UTF8.self) }
    package var stderr: String { String(decoding: stderrBytes, as: UTF8.self) }
}

package enum SqueezerProcess {
    package static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["FILE_SQUEEZER_BINARY"] {
            return URL(fileURLWithPath: path)
        }
        // The products (file-squeezer among them) are built beside the test runner.
        #if os(Linux)
        let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        #else
        // Apple platforms run the tests from a bundle, NAME.xctest, in the products folder.
        let runner = (Bundle.allBundles.first { $0.bundleURL.pathExtension == "xctest" } ?? Bundle.main).bundleURL
        #endif
        return runner.deletingLastPathComponent().appendingPathComponent("file-squeezer")
    }

    /// This process's environment plus `extra`. The child inherits
    /// `TSAN_OPTIONS`, so a TSan-built binary uses the same suppressions as the
    /// test process (CI passes .ci/tsan-suppressions.txt).
    package static func environment(_ extra: [String: String]) -> [String: String] {
        ProcessInfo.processInfo.environment.merging(extra) { $1 }
    }

    /// Starts the binary with output going to files (no pipe can fill up).
    package static func start(
        _ arguments: [String], prefix: [String] = [], environment: [String: String] = [:], in scratch: Scratch
    ) throws -> (Process, URL, URL) {
        let process = Process()
        process.environment = Self.environment(environment)
        let out = scratch.url.appendingPathComponent(".stdout-\(UUID().uuidString)")
        let err = scratch.url.appendingPathComponent(".stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        if prefix.isEmpty {
            process.executableURL = binary
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: prefix[0])
            process.arguments = Array(prefix.dropFirst()) + [binary.path] + arguments
        }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, out, err)
    }

    package static func run(
        _ arguments: [String], prefix: [String] = [], environment: [String: String] = [:], in scratch: Scratch
    ) throws -> SqueezerRun {
        let (process, out, err) = try start(arguments, prefix: prefix, environment: environment, in: scratch)
        process.waitUntilExit()
        return try collect(process, out, err)
    }

    package static func collect(_ process: Process, _ out: URL, _ err: URL) throws -> SqueezerRun {
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        return SqueezerRun(
            status: process.terminationStatus, stdoutBytes: try Data(contentsOf: out), stderrBytes: try Data(contentsOf: err))
    }
}

/// Runs a system tool (gzip) and returns its status and standard output bytes.
package func runTool(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: Data) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.environment = SqueezerProcess.environment([:])
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, output)
}
