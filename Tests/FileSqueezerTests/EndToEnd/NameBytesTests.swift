import Testing
@testable import FileSqueezerCore
import TestSupport

extension EndToEnd {
    /// File names are bytes: names that are not UTF-8 are compressed like
    /// any other, printed as their raw bytes, and escaped in `--json`.
    @Suite("End to end: names are bytes")
    struct NameBytesTests {
        static let cafe: [UInt8] = "caf" + [0xE9] + ".txt"
        static let folder: [UInt8] = "dir" + [0xFF]
        static let kInvalid: [UInt8] = "k" + [0xFF]
        static let kReplacement: [UInt8] = "k" + [0xEF, 0xBF, 0xBD]

        /// in/caf\xe9.txt, in/dir\xff/a.txt, in/k\xff, in/k\xef\xbf\xbd; each with its own content.
        static func makeTree(_ scratch: Scratch) -> [([UInt8], Data)] {
            RawFS.makeFolder(RawFS.path(scratch, Array("in".utf8)))
            RawFS.makeFolder(RawFS.path(scratch, "in/" + folder))
            let files: [([UInt8], Data)] = [
                ("in/" + cafe, Sample.text(5_000, seed: 21)),
                ("in/" + folder + "/a.txt", Sample.text(5_000, seed: 22)),
                ("in/" + kInvalid, Sample.text(5_000, seed: 23)),
                ("in/" + kReplacement, Sample.text(5_000, seed: 24)),
            ]
            for (name, data) in files { RawFS.writeFile(RawFS.path(scratch, name), data) }
            return files
        }

        @Test("names that are not UTF-8 are compressed, each to its own .gz, and printed as raw bytes")
        func notUTF8() throws {
            let scratch = try Scratch()
            let files = Self.makeTree(scratch)
            let run = try SqueezerProcess.run(["--recursive", scratch.path + "/in"], in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(run.stdout.contains("Squeezed 4 files"))
            for (name, data) in files {
                let restored = try RawFS.gunzip(RawFS.path(scratch, name + ".gz"), scratch: scratch)
                #expect(restored == data, "\(String(decoding: name, as: UTF8.self)).gz")
            }
            // As gzip prints names: the bytes themselves, not U+FFFD, not an escape.
            #expect(run.stdoutBytes.range(of: Data(Self.cafe + " -> ")) != nil, "stdout: \(run.stdout)")
            #expect(run.stdoutBytes.range(of: Data(Self.folder + "/a.txt -> ")) != nil)
        }

        @Test("a FOLDER argument that is not UTF-8 is found")
        func folderArgument() throws {
            let scratch = try Scratch()
            let folder: [UInt8] = "caf" + [0xE9]
            RawFS.makeFolder(RawFS.path(scratch, folder))
            RawFS.writeFile(RawFS.path(scratch, folder + "/a.txt"), Sample.text(3_000))
            // Process passes arguments as UTF-8 strings: the shell makes the byte.
            let prefix = ["/bin/sh", "-c", "exec \"$0\" \"$1$(printf 'caf\\351')\"", ]
            let run = try SqueezerProcess.run([scratch.path + "/"], prefix: prefix, in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(run.stdout.contains("Squeezed 1 file"))
            #expect(try RawFS.gunzip(RawFS.path(scratch, folder + "/a.txt.gz"), scratch: scratch) == Sample.text(3_000))
        }

        @Test("--json stays valid UTF-8: an invalid byte B is U+EF00+B, names that are UTF-8 are unchanged")
        func json() throws {
            let scratch = try Scratch()
            _ = Self.makeTree(scratch)
            let run = try SqueezerProcess.run(["--json", "--recursive", scratch.path + "/in"], in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let text = try #require(String(data: run.stdoutBytes, encoding: .utf8), "the report is valid UTF-8")
            let report = try JSONDecoder().decode(RunReport.self, from: Data(text.utf8))
            #expect(report.compressed == 4)
            #expect(Set(report.files.map(\.path)) == ["caf\u{EFE9}.txt", "dir\u{EFFF}/a.txt", "k\u{EFFF}", "k\u{FFFD}"])
            // The escape is reversible: the report names each file exactly.
            for file in report.files {
                #expect(RawFS.readFile(RawFS.path(scratch, "in/" + FileName.bytes(file.path))) != nil, "\(file.path)")
                #expect(RawFS.readFile(FileName.bytes(file.destination)) != nil, "\(file.destination)")
            }
        }
    }
}
