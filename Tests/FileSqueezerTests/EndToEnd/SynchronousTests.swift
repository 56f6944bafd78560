import Foundation
import Testing
@testable import FileSqueezerCore

extension EndToEnd {
    /// `--synchronous`, as gzip spells it: each `.gz` is flushed (`fsync`)
    /// before it gets its final name, and its folder after; the default
    /// flushes nothing. Watched with strace, which .ci/run installs.
    @Suite("End to end: --synchronous")
    struct SynchronousTests {
        static let strace = "/usr/bin/strace"
        /// strace is installed and may trace here (a container without ptrace cannot).
        static let canTrace = FileManager.default.isExecutableFile(atPath: strace)
            && (try? runTool(strace, ["-o", "/dev/null", "/bin/true"]).status) == 0
        /// Three small files and one in five 4 KiB segments.
        static let inputs = [
            "a.txt": Sample.text(3000), "b.txt": Sample.text(4000, seed: 2), "c.bin": Sample.random(100),
            "large.log": Sample.text(5 * 4096 - 7, seed: 3),
        ]

        func makeInput(_ scratch: Scratch) throws {
            for (name, data) in Self.inputs { try scratch.file("in/" + name, data) }
        }

        @Test("--synchronous writes the same gzip; the other options still apply", arguments: [
            ["--synchronous"], ["--synchronous", "--strategy", "main-actor"], ["--synchronous", "--force"],
        ])
        func output(_ flags: [String]) throws {
            let scratch = try Scratch()
            try makeInput(scratch)
            let run = try SqueezerProcess.run(flags + ["--quiet", "--segment-kib", "4", scratch.path + "/in"], in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(run.stdout.contains("Squeezed 4 files"))
            for (name, data) in Self.inputs {
                let unpacked = try runTool("/usr/bin/gzip", ["-dc", scratch.path + "/in/" + name + ".gz"])
                #expect(unpacked.status == 0 && unpacked.output == data, "\(name).gz")
            }
            #expect(try scratch.listing("in").count == 2 * Self.inputs.count, "no temporary file left")
        }

        /// The fsync, link and rename calls of a run, in order per thread.
        func tracedCalls(_ flags: [String], _ scratch: Scratch) throws -> [String: [String]] {
            let log = scratch.path + "/strace.log"
            let run = try SqueezerProcess.run(
                flags + ["--quiet", "--segment-kib", "4", scratch.path + "/in"],
                prefix: [Self.strace, "-f", "-y", "-o", log, "-e", "trace=fsync,fdatasync,link,linkat,rename,renameat,renameat2"],
                in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            var calls: [String: [String]] = [:]
            for line in try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n") {
                let parts = line.split(separator: " ", maxSplits: 1)
                guard parts.count == 2, !parts[1].hasPrefix("<..."), !parts[1].hasPrefix("+++"), !parts[1].hasPrefix("---")
                else { continue }
                let call = String(parts[1])
                let folder = "<\(scratch.path)/in>"
                let kind = call.hasPrefix("fsync(") || call.hasPrefix("fdatasync(")
                    ? (call.contains(folder) ? "sync folder" : "sync file") : "link"
                calls[String(parts[0]), default: []].append(kind)
            }
            return calls
        }

        @Test("with --synchronous every .gz is fsynced before it is linked, and its folder after; without, nothing is",
              .enabled(if: canTrace, "needs strace and ptrace (apt-get install strace; .ci/run does)"))
        func fsyncs() throws {
            let scratch = try Scratch()
            try makeInput(scratch)
            let synchronous = try tracedCalls(["--synchronous"], scratch)
            // Per file, in the thread that puts it in place: sync file, link, sync folder.
            let sequence = synchronous.values.flatMap { $0 }
            #expect(sequence.filter { $0 == "link" }.count == Self.inputs.count)
            #expect(sequence.filter { $0 == "sync file" }.count == Self.inputs.count)
            #expect(sequence.filter { $0 == "sync folder" }.count == Self.inputs.count)
            for (thread, calls) in synchronous {
                for (index, call) in calls.enumerated() where call == "link" {
                    #expect(index > 0 && calls[index - 1] == "sync file", "thread \(thread): \(calls)")
                    #expect(index + 1 < calls.count && calls[index + 1] == "sync folder", "thread \(thread): \(calls)")
                }
            }
            for name in Self.inputs.keys { try FileManager.default.removeItem(atPath: scratch.path + "/in/" + name + ".gz") }
            let plain = try tracedCalls([], scratch).values.flatMap { $0 }
            #expect(plain.filter { $0 == "link" }.count == Self.inputs.count)
            #expect(!plain.contains { $0.hasPrefix("sync") }, "no fsync by default: \(plain)")
        }
    }
}
