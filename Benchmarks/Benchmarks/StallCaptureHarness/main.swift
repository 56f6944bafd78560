// What the stall capture does to the program it watches, and what it costs
// (issue 27's "Done means"). A plain release program; run by
// Scripts/stall-capture.sh.
//
//   StallCaptureHarness matrix MILLISECONDS   the 7 calls × main actor, every pool thread; exit 1 on a failure
//   StallCaptureHarness repeat [N]            N (200) blocks of 150–300 ms in this process; exit 1 if a call was interrupted
//   StallCaptureHarness cost [ROWS]           one capture's cost per blocked and per running thread (ROUNDS, CAPTURES)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
func environment(_ name: String, default value: Int) -> Int {
    getenv(name).flatMap { Int(String(cString: $0)) } ?? value
}
let usage = "usage: StallCaptureHarness matrix MILLISECONDS | repeat [N] | cost [ROWS]"

switch (arguments.first, arguments.count) {
case ("matrix", 2):
    guard let length = Int(arguments[1]), length >= 200 else {
        print("matrix: MILLISECONDS must be a number of at least 200 (two thresholds)")
        exit(2)
    }
    startDetector()
    try await Task.sleep(for: .milliseconds(300))  // every probe has run once
    exit(await runMatrix(milliseconds: length) ? 0 : 1)
case ("repeat", 1), ("repeat", 2):
    guard let count = arguments.count == 2 ? Int(arguments[1]) : 200, count > 0 else {
        print(usage)
        exit(2)
    }
    startDetector()
    try await Task.sleep(for: .milliseconds(300))
    exit(await runRepeat(count: count) ? 0 : 1)
case ("cost", 1), ("cost", 2):
    let ok = runCost(rowsPath: arguments.count == 2 ? arguments[1] : nil,
                     rounds: environment("ROUNDS", default: 11), captures: environment("CAPTURES", default: 200))
    exit(ok ? 0 : 1)
default:
    print(usage)
    exit(2)
}
