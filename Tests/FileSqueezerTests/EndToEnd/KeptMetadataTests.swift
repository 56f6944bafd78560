import Testing
@testable import FileSqueezerCore
import TestSupport

extension EndToEnd {
    /// The `.gz` keeps its original's modification and access times, mode,
    /// and (as root) owner and group, as gzip does: on the whole-file and the
    /// segmented path (`--strategy main-actor`, `parallel`), and when
    /// `--force` replaces an existing `.gz`.
    @Suite("End to end: the .gz keeps the original's times and owner")
    struct KeptMetadataTests {
        static let accessed = (1_500_000_000, 987_654_321)
        static let modified = (1_600_000_000, 123_456_789)

        /// A small file (one write) and a large one (`--segment-kib 4`: five segments).
        static let inputs = ["notes.txt": Sample.text(1000), "large.log": Sample.text(5 * 4096 - 7, seed: 3)]

        func makeInput(_ scratch: Scratch, mode: mode_t = 0o640) throws {
            for (name, data) in Self.inputs {
                let path = try scratch.file("in/" + name, data)
                chmod(path, mode)
                try setTimes(path, access: Self.accessed, modification: Self.modified)
            }
        }

        func squeeze(_ scratch: Scratch, _ flags: [String] = [], strategy: Strategy = .parallel) throws {
            let run = try SqueezerProcess.run(
                flags + ["--quiet", "--strategy", strategy.rawValue, "--segment-kib", "4", scratch.path + "/in"], in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
        }

        @Test("the .gz has the original's mtime and atime (to the nanosecond here) and mode",
              arguments: [[], ["--force"]], [Strategy.parallel, .mainActor])
        func times(_ flags: [String], _ strategy: Strategy) throws {
            let scratch = try Scratch()
            try makeInput(scratch)
            if flags == ["--force"] {
                for name in Self.inputs.keys { try scratch.file("in/\(name).gz", Data("old".utf8)) }
            }
            try squeeze(scratch, flags, strategy: strategy)
            for name in Self.inputs.keys {
                let gz = try fileStatus(scratch.path + "/in/" + name + ".gz")
                #expect(gz.st_mtim.tv_sec == Self.modified.0 && gz.st_mtim.tv_nsec == Self.modified.1, "\(name).gz mtime")
                // The time before it was read: compressing it reads it (and may move its atime).
                #expect(gz.st_atim.tv_sec == Self.accessed.0 && gz.st_atim.tv_nsec == Self.accessed.1, "\(name).gz atime")
                #expect(gz.st_mode & 0o7777 == 0o640, "\(name).gz mode")
                #expect(try runTool("/usr/bin/gzip", ["-t", scratch.path + "/in/" + name + ".gz"]).status == 0)
            }
        }

        @Test("as root, the .gz of a file owned by nobody:nogroup is owned by nobody:nogroup",
              .enabled(if: getuid() == 0, "only root can give a file away (CI runs as root)"))
        func owner() throws {
            for strategy in [Strategy.parallel, .mainActor] { try owner(strategy) }
        }

        func owner(_ strategy: Strategy) throws {
            let scratch = try Scratch()
            try makeInput(scratch, mode: 0o600)
            let nobody: uid_t = 65_534, nogroup: gid_t = 65_534
            for name in Self.inputs.keys { #expect(chown(scratch.path + "/in/" + name, nobody, nogroup) == 0) }
            try squeeze(scratch, strategy: strategy)
            for name in Self.inputs.keys {
                let gz = try fileStatus(scratch.path + "/in/" + name + ".gz")
                #expect(gz.st_uid == nobody && gz.st_gid == nogroup, "\(name).gz owner \(gz.st_uid):\(gz.st_gid)")
                #expect(gz.st_mode & 0o7777 == 0o600, "\(name).gz mode")
            }
        }
    }
}
