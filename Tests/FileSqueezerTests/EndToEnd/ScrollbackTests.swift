import Testing
import TestSupport

extension EndToEnd {
    /// The live bars are erased, not pushed into the terminal's scrollback:
    /// after a run in tmux, no bar is left anywhere in the pane's history.
    /// tmux keeps what `ESC [ J` clears from the screen's top-left corner
    /// (`scroll-on-clear`), which is where the bars start in a fresh pane.
    @Suite("End to end: the live display leaves nothing in the scrollback")
    struct ScrollbackTests {
        static let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }

        /// Runs tmux on a server of this test's own (`-L`), so no one else's
        /// sessions are touched. Through bash, which closes every descriptor
        /// above 2 first: the server that the first client starts would keep
        /// them, among them the one Foundation's Process watches to see its
        /// child exit, and the wait would never end. Its output goes to a file.
        static func tmux(_ socket: String, _ arguments: [String], in scratch: Scratch) throws -> String {
            let output = scratch.path + "/tmux-output"
            let script = "for fd in $(seq 3 255); do eval \"exec $fd>&-\"; done 2>/dev/null; "
                + "out=$1; shift; \"$@\" >\"$out\" 2>/dev/null </dev/null"
            _ = try runTool("/bin/bash", ["-c", script, "bash", output, tmux!, "-L", socket] + arguments)
            return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        }

        @Test("no bar is left in the pane's history at 20, 80 and 200 columns (skipped without tmux: install it)",
              .enabled(if: Self.tmux != nil && FileManager.default.isExecutableFile(atPath: "/bin/bash"),
                      "tmux is not installed (apt-get install tmux)"),
              arguments: [20, 80, 200])
        func noBarsInScrollback(_ columns: Int) throws {
            let scratch = try Scratch()
            let folder = try TerminalFitTests.slowFolder(scratch)
            let socket = "file-squeezer-test-\(getpid())-\(columns)"
            // Not kill-server: it signals the server, which may have inherited
            // this process's blocked signals. With no session left it exits.
            defer { _ = try? Self.tmux(socket, ["kill-session", "-t", "run"], in: scratch) }
            // The pane stays after the run (remain-on-exit), so its history
            // can be read, and no process of it outlives the server.
            let command = "TERM=xterm \(SqueezerProcess.binary.path) --level 9 --jobs 2 \(folder); echo \"EXIT=$?\""
            _ = try Self.tmux(socket, [
                "start-server", ";", "set-option", "-g", "remain-on-exit", "on", ";",
                "new-session", "-d", "-s", "run", "-x", String(columns), "-y", "10", command,
            ], in: scratch)
            var capture = ""
            let deadline = ContinuousClock.now + .seconds(120)
            while ContinuousClock.now < deadline {
                capture = try Self.tmux(socket, ["capture-pane", "-p", "-J", "-t", "run", "-S", "-"], in: scratch)
                if capture.contains("EXIT=") { break }
                usleep(200_000)
            }
            #expect(capture.contains("EXIT=0"), "the run did not end well within 120 s: \(capture)")
            #expect(capture.contains("Squeezed 3 files"), "\(capture)")
            // Every live line has a bar: "[#..]" or "[...]".
            let bars = capture.split(separator: "\n").filter { $0.contains(/\[[#.]+\]/) }
            #expect(bars.isEmpty, "\(bars.count) live lines left at \(columns) columns: \(bars)")
        }
    }
}
