@testable import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport

/// Stall tests run in a child process (an exit test), where no other test
/// blocks the pool or the main actor at the same time. The child writes one
/// `STALL …` line per recorded stall to standard error; the parent reads them.
struct RecordedStall: CustomStringConvertible {
    var kind: String
    var isOngoing: Bool
    var milliseconds: Int
    var frames: [String]

    var description: String { "\(kind) \(milliseconds) ms\(isOngoing ? " ongoing" : "") [\(frames.joined(separator: " | "))]" }

    static func parse(_ standardError: [UInt8]) -> [RecordedStall] {
        String(decoding: standardError, as: UTF8.self).split(separator: "\n").compactMap { line in
            guard line.hasPrefix("STALL\t") else { return nil }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5, let milliseconds = Int(fields[3]) else { return nil }
            return RecordedStall(
                kind: fields[1], isOngoing: fields[2] == "ongoing", milliseconds: milliseconds,
                frames: fields[4].split(separator: "|").map(String.init))
        }
    }
}

/// In the child: writes the stalls as `STALL` lines.
func writeStallLines(_ stalls: [ConcurrencyStall]) {
    for stall in stalls {
        let frames = stall.backtrace.map { $0.replacingOccurrences("|", "/") }.joined(separator: "|")
        writeToStandardError(
            "STALL\t\(stall.kind)\t\(stall.isOngoing ? "ongoing" : "ended")\t\(ConcurrencyStall.milliseconds(stall.duration))\t\(frames)\n")
    }
}

extension String {
    fileprivate func replacingOccurrences(_ target: Character, _ replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}

/// The main actor's blocking function the report must name.
@inline(never) @MainActor
func blockTheMainActorFor400ms() {
    blockThread(milliseconds: 400)
}

/// Waits until `recorder` holds an ended stall, for up to 60 s: the report
/// comes after the first symbolication, which took over 5 s under
/// AddressSanitizer on a loaded machine.
func waitForAnEndedStall(in recorder: TraceRecorder) async {
    _ = await eventually(within: .seconds(60)) {
        recorder.trace.events.contains { event in
            if case .stalled(let stall) = event.kind { !stall.isOngoing } else { false }
        }
    }
}

/// Every pool thread's blocking function the report must name.
@inline(never)
func blockEveryPoolThread() {
    blockThread(milliseconds: 500)
}

