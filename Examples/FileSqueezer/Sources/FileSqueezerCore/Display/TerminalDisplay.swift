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
final class TerminalDisplay {
    /// How much to show; see the type's description.
    enum Mode: Sendable { case live, lines, quiet }

    let mode: Mode
    /// The display width of each line drawn last time: after a resize the
    /// terminal may have re-wrapped them, and erasing must cover every row.
    private var drawnWidths: [Int] = []
    private var lastDraw = ContinuousClock.now - .seconds(1)
    private let minimumInterval = Duration.milliseconds(33)
    private var lastState: CompressionState?

    init(mode: Mode) { self.mode = mode }

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

    /// The terminal changed size (SIGWINCH): erase what the old size drew,
    /// counting the rows the terminal may have re-wrapped it into, and draw
    /// again to the new width.
    func resized() {
        guard mode == .live, let state = lastState, !drawnWidths.isEmpty else { return }
        draw(state)
    }

    func finish(_ state: CompressionState) {
        erase()
        lastState = nil
    }

    static func line(for outcome: FileOutcome) -> String {
        let percent = outcome.bytesIn == 0 ? 100 : Double(outcome.bytesOut) / Double(outcome.bytesIn) * 100
        return "\(outcome.path) -> \(outcome.path).gz  \(formatBytes(outcome.bytesIn)) -> \(formatBytes(outcome.bytesOut)) (\(formatDecimal(percent, 1))%)\n"
    }

    private func draw(_ state: CompressionState) {
        lastState = state
        let size = Terminal.size ?? (columns: 80, rows: 24)
        var text = eraseSequence(columns: size.columns)
        let lines = LiveLines.render(state, columns: size.columns, rows: size.rows)
        for line in lines { text += line.text + "\n" }
        Terminal.out(text)
        drawnWidths = lines.map(\.width)
        lastDraw = .now
    }

    private func erase() {
        guard !drawnWidths.isEmpty else { return }
        Terminal.out(eraseSequence(columns: Terminal.size?.columns ?? 80))
    }

    /// Moves up over the bars drawn last time and clears their rows, one by
    /// one (`ESC [ 2 K`, down, ...), then goes back up to the first. Not
    /// `ESC [ J`: from the screen's top-left corner, where the bars start on
    /// a fresh or full screen, tmux takes it for clearing the screen and
    /// keeps what it clears in the scrollback (`scroll-on-clear`). A line of
    /// `w` columns takes `ceil(w / columns)` rows once a terminal narrower
    /// than when it was drawn has re-wrapped it.
    private func eraseSequence(columns: Int) -> String {
        defer { drawnWidths = [] }
        let rows = drawnWidths.reduce(0) { $0 + max(1, ($1 + columns - 1) / max(1, columns)) }
        guard rows > 0 else { return "" }
        let clear = Array(repeating: "\u{1B}[2K", count: rows).joined(separator: "\u{1B}[B")
        return "\u{1B}[\(rows)F" + clear + (rows > 1 ? "\u{1B}[\(rows - 1)A" : "")
    }
}
