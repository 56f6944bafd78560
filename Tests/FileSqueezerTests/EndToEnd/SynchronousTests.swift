import Testing
import TestSupport

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

        /// One traced call: a flush of a `.gz` or of the folder, or the call
        /// that gave a `.gz` its final name.
        enum Call: Equatable, CustomStringConvertible {
            case syncFile, syncFolder, named(String)
            var description: String {
                switch self {
                case .syncFile: "sync file"
                case .syncFolder: "sync folder"
                case .named(let name): "name \(name)"
                }
            }
        }

        /// The fsync calls, and the link or rename calls that give an input's
        /// `.gz` its name, in order per thread; and the raw trace, for messages.
        func tracedCalls(_ flags: [String], _ scratch: Scratch) throws -> (calls: [String: [Call]], trace: String) {
            let log = scratch.path + "/strace.log"
            let run = try SqueezerProcess.run(
                flags + ["--quiet", "--segment-kib", "4", scratch.path + "/in"],
                prefix: [Self.strace, "-f", "-y", "-o", log, "-e", "trace=fsync,fdatasync,link,linkat,rename,renameat,renameat2"],
                in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let trace = try String(contentsOfFile: log, encoding: .utf8)
            let folder = "<\(scratch.path)/in>"
            var calls: [String: [Call]] = [:]
            for line in trace.split(separator: "\n") {
                let parts = line.split(separator: " ", maxSplits: 1)
                guard parts.count == 2 else { continue }
                // strace pads short thread ids: "6146  fsync(...)".
                let (thread, call) = (String(parts[0]), parts[1].drop { $0 == " " })
                if call.hasPrefix("fsync(") || call.hasPrefix("fdatasync(") {
                    // A folder shows as <path>; a file in it as <path/name> (or <path/#inode>(deleted)).
                    calls[thread, default: []].append(call.contains(folder) ? .syncFolder : .syncFile)
                } else if call.hasPrefix("link") || call.hasPrefix("rename"),
                          let name = Self.inputs.keys.first(where: { call.contains("/\($0).gz\"") || call.contains("\"\($0).gz\"") }) {
                    calls[thread, default: []].append(.named(name))
                }
            }
            return (calls, trace)
        }

        @Test("with --synchronous every .gz is fsynced before it is linked, and its folder after; without, nothing is",
              .enabled(if: canTrace, "needs strace and ptrace (apt-get install strace; .ci/run does)"))
        func fsyncs() throws {
            let scratch = try Scratch()
            try makeInput(scratch)
            let (synchronous, trace) = try tracedCalls(["--synchronous"], scratch)
            // Per file, in the thread that puts it in place: sync file, link, sync folder.
            let sequence = synchronous.values.flatMap { $0 }
            #expect(Set(sequence.compactMap { if case .named(let name) = $0 { name } else { nil } }) == Set(Self.inputs.keys),
                    "strace:\n\(trace)")
            #expect(sequence.filter { $0 == .syncFile }.count == Self.inputs.count, "strace:\n\(trace)")
            #expect(sequence.filter { $0 == .syncFolder }.count == Self.inputs.count, "strace:\n\(trace)")
            for (thread, calls) in synchronous {
                for (index, call) in calls.enumerated() {
                    guard case .named = call else { continue }
                    #expect(index > 0 && calls[index - 1] == .syncFile, "thread \(thread): \(calls)\nstrace:\n\(trace)")
                    #expect(index + 1 < calls.count && calls[index + 1] == .syncFolder, "thread \(thread): \(calls)\nstrace:\n\(trace)")
                }
            }
            for name in Self.inputs.keys { try FileManager.default.removeItem(atPath: scratch.path + "/in/" + name + ".gz") }
            let (plainCalls, plainTrace) = try tracedCalls([], scratch)
            let plain = plainCalls.values.flatMap { $0 }
            #expect(plain.filter { if case .named = $0 { true } else { false } }.count == Self.inputs.count, "strace:\n\(plainTrace)")
            #expect(!plain.contains { $0 == .syncFile || $0 == .syncFolder }, "no fsync by default: \(plain)")
        }
    }
}
