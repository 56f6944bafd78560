import Testing
@testable import FileSqueezerCore
import TestSupport

extension EndToEnd {
    /// A file found and not compressed is a documented skip or a failure
    /// that names it, counts in `--json`'s `failed` and makes the exit
    /// status 1, even with `--quiet` (issue 12). Root reads everything, so
    /// the binary runs as `nobody`.
    @Suite(
        "End to end: entries that cannot be inspected",
        .enabled(if: getuid() == 0, "needs root, to run the binary as nobody over folders it cannot enter"))
    struct UninspectableTests {
        static let asNobody = ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]

        /// A scratch folder that `nobody` can reach, with `in/` writable by it.
        static func scratchForNobody() throws -> Scratch {
            let scratch = try Scratch()
            chmod(scratch.path, 0o755)
            try scratch.file("in/ok.txt", Sample.text(3_000))
            chmod(scratch.path + "/in", 0o777)
            return scratch
        }

        @Test("a subfolder that can be listed but not entered (r--) and one that cannot be listed: each named, counted, exit 1")
        func subfolders() throws {
            let scratch = try Self.scratchForNobody()
            try scratch.file("in/listable/x.txt", Sample.text(3_000, seed: 2))
            try scratch.file("in/unlistable/y.txt", Sample.text(3_000, seed: 3))
            chmod(scratch.path + "/in/listable", 0o444)
            chmod(scratch.path + "/in/unlistable", 0o311)
            defer {
                chmod(scratch.path + "/in/listable", 0o755)
                chmod(scratch.path + "/in/unlistable", 0o755)
            }
            let run = try SqueezerProcess.run(["-r", "-q", scratch.path + "/in"], prefix: Self.asNobody, in: scratch)
            #expect(run.status == 1)
            #expect(run.stderr.contains("file-squeezer: listable/x.txt: cannot inspect: Permission denied"), "\(run.stderr)")
            #expect(run.stderr.contains("file-squeezer: unlistable: cannot open the folder: Permission denied"), "\(run.stderr)")
            #expect(run.stdout.contains("Squeezed 1 file:"))
            #expect(run.stdout.contains("2 files failed"))

            let json = try SqueezerProcess.run(["-r", "--json", "--force", scratch.path + "/in"], prefix: Self.asNobody, in: scratch)
            #expect(json.status == 1)
            let report = try JSONDecoder().decode(RunReport.self, from: json.stdoutBytes)
            #expect(report.failed == 2)
            #expect(Set(report.files.filter { $0.status == .failed }.map(\.path)) == ["listable/x.txt", "unlistable"])
        }

        @Test("a FOLDER argument that can be listed but not entered (r--): each file named, exit 1")
        func folderArgument() throws {
            let scratch = try Self.scratchForNobody()
            try scratch.file("in/b.txt", Sample.text(3_000, seed: 4))
            chmod(scratch.path + "/in", 0o444)
            defer { chmod(scratch.path + "/in", 0o755) }
            let run = try SqueezerProcess.run([scratch.path + "/in"], prefix: Self.asNobody, in: scratch)
            #expect(run.status == 1)
            #expect(run.stderr.contains("file-squeezer: b.txt: cannot inspect: Permission denied"), "\(run.stderr)")
            #expect(run.stderr.contains("file-squeezer: ok.txt: cannot inspect: Permission denied"), "\(run.stderr)")
            #expect(run.stdout.contains("2 files failed"))
        }
    }
}
