import Testing
import TestSupport

#if os(Linux)
extension EndToEnd {
    /// Files whose size says nothing of their content (issue 12): every file
    /// is read to its end, and what was read is compared, not only `st_size`.
    @Suite("End to end: pseudo-files")
    struct PseudoFileTests {
        /// The files of `folder` named `names`, as they read now.
        static func contents(_ folder: String, _ names: [String]) throws -> [String: Data] {
            try Dictionary(uniqueKeysWithValues: names.map { ($0, try Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0))) })
        }

        static func decompressed(_ folder: String, _ names: [String]) throws -> [String: Data] {
            try Dictionary(uniqueKeysWithValues: names.map { ($0, try runTool("/usr/bin/gzip", ["-dc", folder + "/" + $0 + ".gz"]).output) })
        }

        @Test(
            "/proc files (size 0) compress to their real content",
            .enabled(if: FileManager.default.fileExists(atPath: "/proc/sys/kernel/ostype"), "needs Linux's /proc"))
        func proc() throws {
            let scratch = try Scratch()
            let names = ["ostype", "osrelease", "version"]
            let run = try SqueezerProcess.run(["--output", scratch.path + "/out", "/proc/sys/kernel"], in: scratch)
            // Some files there cannot be opened, even by root: each fails by name, none in silence.
            #expect(run.status == 0 || run.stderr.contains(": cannot "), "stderr: \(run.stderr)")
            #expect(try Self.decompressed(scratch.path + "/out", names) == Self.contents("/proc/sys/kernel", names))
            #expect(try !Self.contents("/proc/sys/kernel", ["ostype"])["ostype"]!.isEmpty)
        }

        @Test(
            "/sys files (size 4096 whatever they hold) compress to their real content, not 'changed size'",
            .enabled(if: FileManager.default.fileExists(atPath: "/sys/devices/system/cpu/possible"), "needs Linux's /sys"))
        func sys() throws {
            let scratch = try Scratch()
            let names = ["possible", "present", "kernel_max"]
            let run = try SqueezerProcess.run(["--output", scratch.path + "/out", "/sys/devices/system/cpu"], in: scratch)
            #expect(!run.stderr.contains("changed size"), "stderr: \(run.stderr)")
            #expect(try Self.decompressed(scratch.path + "/out", names) == Self.contents("/sys/devices/system/cpu", names))
        }
    }
}
#endif
