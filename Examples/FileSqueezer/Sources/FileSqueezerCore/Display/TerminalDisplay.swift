/// Shows a run in the terminal, from the main actor.
///
/// ```swift
/// let display = TerminalDisplay(mode: Terminal.isInteractive ? .live : .lines)
/// ```
///
/// - `.live` (a TTY): a bar per file in flight and an overall line with
///   bytes, throughput and ETA, redrawn at most 30 times a second; finished
///   files scroll above the bars.
/// - `.lines` (a pipe or file): one line per finished file.
/// - `.quiet`: failures only.
/// Failures always go to standard error, naming the file and the reason.
@MainActor
public final class TerminalDisplay {
    /// How much to show; see the type's description.
    public enum Mode: Sendable { case live, lines, quiet }

    public let mode: Mode
    private var drawnLines = 0
    private var lastDraw = ContinuousClock.now - .seconds(1)
    private let minimumInterval = Duration.milliseconds(33)

    public init(mode: Mode) { self.mode = mode }

    func fileFinished(_ outcome: FileOutcome, state: CompressionState) {
        switch outcome.status {
        case .failed:
            erase()
            Terminal.error("file-squeezer: \(outcome.path): \(outcome.reason ?? "failed")\n")
        case .cancelled:
            return
        case .compressed:
            guard mode != .quiet else { return }
            erase()
            Terminal.out(Self.line(for: outcome))
        }
        if mode == .live { draw(state) }
    }

    /// Redraws the live bars if the last draw is old enough.
    func refresh(_ state: CompressionState) {
        guard mode == .live, ContinuousClock.now - lastDraw >= minimumInterval else { return }
        draw(state)
    }

    func finish(_ state: CompressionState) {
        erase()
    }

    static func line(for outcome: FileOutcome) -> String {
        let percent = outcome.bytesIn == 0 ? 100 : Double(outcome.bytesOut) / Double(outcome.bytesIn) * 100
        return "\(outcome.path) -> \(outcome.path).gz  \(formatBytes(outcome.bytesIn)) -> \(formatBytes(outcome.bytesOut)) (\(formatDecimal(percent, 1))%)\n"
    }

    private func draw(_ state: CompressionState) {
        var text = eraseSequence()
        let files = state.filesInFlight
        for file in files {
            text += "  \(bar(file.fraction, width: 24)) \(pad(formatDecimal(file.fraction * 100, 0), 3))%  \(file.name)\n"
        }
        let elapsed = (ContinuousClock.now - state.startedAt).seconds
        let speed = elapsed > 0 ? Double(state.bytesDone) / elapsed : 0
        let remaining = Double(state.totalBytes - state.bytesDone)
        let eta = speed > 0 ? "\(formatDecimal(remaining / speed, 0)) s" : "-"
        text += "\(bar(state.fractionDone, width: 24)) \(state.finishedFiles + state.failedFiles)/\(state.totalFiles) files  "
            + "\(formatBytes(state.bytesDone)) of \(formatBytes(state.totalBytes))  \(formatBytes(Int64(speed)))/s  ETA \(eta)\n"
        Terminal.out(text)
        drawnLines = files.count + 1
        lastDraw = .now
    }

    private func erase() {
        guard drawnLines > 0 else { return }
        Terminal.out(eraseSequence())
    }

    /// Moves up over the bars drawn last time and clears to the end of the screen.
    private func eraseSequence() -> String {
        defer { drawnLines = 0 }
        return drawnLines > 0 ? "\u{1B}[\(drawnLines)F\u{1B}[J" : ""
    }

    private func bar(_ fraction: Double, width: Int) -> String {
        let filled = max(0, min(width, Int(fraction * Double(width))))
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
    }

    private func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
