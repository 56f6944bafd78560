/// The live display's lines for one redraw, fitted to the terminal: no line
/// reaches the last column (so none wraps and erasing it is exact), and no
/// more lines than the screen holds (a cursor cannot move above the screen's
/// top, so lines scrolled off it could not be erased).
///
/// ```swift
/// let lines = LiveLines.render(state, columns: 20, rows: 10)
/// for line in lines { print(line.text) }    // each at most 19 columns wide
/// ```
enum LiveLines {
    struct Line: Equatable {
        let text: String
        /// Columns it takes (at least; see ``fit(_:columns:)``).
        let width: Int
    }

    @MainActor
    static func render(_ state: CompressionState, columns: Int, rows: Int) -> [Line] {
        let usable = max(1, columns - 1)
        // 24 columns of bar on an 80-column terminal, less on a narrow one.
        let barWidth = max(3, min(24, (usable - 12) / 2))
        var files = state.filesInFlight
        // Keep one row for the overall line and one for the cursor.
        let room = max(0, rows - 2)
        var hidden = 0
        if files.count > room {
            hidden = files.count - max(0, room - 1)
            files = Array(files.prefix(max(0, room - 1)))
        }
        var lines = files.map { file in
            fit("  \(bar(file.fraction, width: barWidth)) \(pad(formatDecimal(file.fraction * 100, 0), 3))%  \(file.name)", columns: usable)
        }
        if hidden > 0, room > 0 { lines.append(fit("  and \(hidden) more", columns: usable)) }
        let elapsed = (ContinuousClock.now - state.startedAt).seconds
        let speed = elapsed > 0 ? Double(state.bytesDone) / elapsed : 0
        let remaining = Double(state.totalBytes - state.bytesDone)
        let eta = speed > 0 ? "\(formatDecimal(remaining / speed, 0)) s" : "-"
        lines.append(fit(
            "\(bar(state.fractionDone, width: barWidth)) \(state.finishedFiles + state.failedFiles)/\(state.totalFiles) files  "
                + "\(formatBytes(state.bytesDone)) of \(formatBytes(state.totalBytes))  \(formatBytes(Int64(speed)))/s  ETA \(eta)",
            columns: usable))
        return lines
    }

    /// `text` cut to `columns`, with control characters (a newline or an
    /// escape in a file name) shown as `?`. Any non-ASCII character counts
    /// as two columns, so a wide one (CJK, emoji) never overflows the line.
    static func fit(_ text: String, columns: Int) -> Line {
        var result = ""
        var width = 0
        for character in text {
            let control = character.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
            let shown: Character = control ? "?" : character
            let cost = control || character.isASCII ? 1 : 2
            if width + cost > columns { break }
            result.append(shown)
            width += cost
        }
        return Line(text: result, width: width)
    }

    private static func bar(_ fraction: Double, width: Int) -> String {
        let filled = max(0, min(width, Int(fraction * Double(width))))
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
