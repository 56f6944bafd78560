/// Draws a timeline as one self-contained SVG file: no scripts, no external
/// fonts or styles, so a browser, an image viewer or a Markdown renderer shows it.
///
/// Layout, top to bottom: title, time axis, one lane per thread (work nested
/// inside other work drawn one row lower), then the waits and the work that
/// moved between threads, and task time (a row group per kind), then the legend.
enum SVGTimeline {
    static let labelWidth = 200.0
    static let plotWidth = 1000.0
    static let rowHeight = 16.0
    static let barHeight = 12.0
    /// Rows per thread lane; deeper nesting shares the last row.
    static let maximumDepth = 5

    static func color(_ category: TraceTimeline.Category) -> String { category.look.color }

    static func render(_ timeline: TraceTimeline, title: String) -> String {
        let duration = max(timeline.duration, 1)
        func x(_ time: UInt64) -> Double { labelWidth + Double(min(time, duration)) / Double(duration) * plotWidth }
        var body: [String] = []
        var y = 84.0

        // Thread lanes.
        for (index, thread) in timeline.threads.enumerated() {
            let onLane = timeline.intervals.compactMap { interval -> (TraceTimeline.Interval, depth: Int)? in
                guard interval.startThread == thread.id, case .thread(let depth) = interval.placement else { return nil }
                return (interval, min(depth, maximumDepth))
            }
            let depth = onLane.map(\.depth).max() ?? 0
            let height = Double(depth + 1) * rowHeight + 8
            var lane = ["<g class=\"lane\" data-thread-id=\"\(thread.id)\">"]
            lane.append(rect(0, y, labelWidth + plotWidth, height, fill: index % 2 == 0 ? "#f4f4f4" : "#ffffff"))
            lane.append(text(8, y + 15, thread.name, weight: "bold", title: "\(thread.name) — OS thread \(thread.id) (\(thread.systemName))"))
            for (interval, depth) in onLane {
                lane.append(bar(interval, x: x(interval.start), end: x(interval.end), y: y + 4 + Double(depth) * rowHeight))
            }
            for instant in timeline.instants where instant.thread == thread.id {
                lane.append(mark(instant, x: x(instant.time), top: y, height: height))
            }
            lane.append("</g>")
            body += lane
            y += height
        }

        // Waits and work that crossed threads.
        let detached = timeline.intervals.filter { if case .detached = $0.placement { true } else { false } }
        if !detached.isEmpty {
            y += 8
            body.append(text(8, y + 12, "Waits, tasks, and work that moved between threads", weight: "bold"))
            y += 20
            for category in TraceTimeline.Category.allCases {
                let members = detached.filter { $0.category == category }
                guard !members.isEmpty else { continue }
                let rows = (members.map { if case .detached(let r) = $0.placement { r } else { 0 } }.max() ?? 0) + 1
                let height = Double(rows) * rowHeight + 8
                body.append("<g class=\"waits\" data-kind=\"\(category.key)\">")
                body.append(rect(0, y, labelWidth + plotWidth, height, fill: "#fafafa"))
                body.append(text(8, y + 15, category.label))
                for interval in members {
                    guard case .detached(let row) = interval.placement else { continue }
                    body.append(bar(interval, x: x(interval.start), end: x(interval.end), y: y + 4 + Double(row) * rowHeight))
                }
                body.append("</g>")
                y += height
            }
        }
        let plotBottom = y

        // Time axis: ticks at a round step, grid lines through every lane.
        var axis: [String] = []
        let step = tickStep(duration)
        var tick: UInt64 = 0
        while tick <= duration {
            let tx = x(tick)
            axis.append(line(tx, 72, tx, plotBottom, stroke: "#cccccc"))
            axis.append(text(tx, 66, TraceFormatting.duration(tick), anchor: tick == 0 ? "start" : "middle"))
            tick += step
        }

        // Legend.
        var legend: [String] = []
        var lx = 8.0
        let ly = plotBottom + 20
        for category in TraceTimeline.Category.allCases {
            legend.append(rect(lx, ly, 14, barHeight, fill: color(category)))
            legend.append(text(lx + 18, ly + 10, category.label))
            lx += 40 + Double(category.label.count) * 6.2
        }
        for kind in TraceTimeline.Instant.Kind.allCases {
            legend.append(triangle(lx + 6, ly, fill: kind.look.color))
            legend.append(text(lx + 16, ly + 10, kind.look.label))
            lx += max(70, 30 + Double(kind.look.label.count) * 6.2)
        }
        legend.append(rect(8, ly + 20, 14, barHeight, fill: "#ffffff", extra: " stroke=\"#000000\" stroke-dasharray=\"3,2\""))
        legend.append(text(26, ly + 30, "dashed outline: still running or waiting when the recording ended"))

        let width = labelWidth + plotWidth + 20
        let height = ly + 44
        let subtitle = "\(TraceFormatting.duration(timeline.duration)) · \(timeline.threads.count) threads · "
            + "\(timeline.eventCount) events" + (timeline.discardedEventCount > 0 ? " · \(timeline.discardedEventCount) late events discarded" : "")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(n(width))" height="\(n(height))" \
            viewBox="0 0 \(n(width)) \(n(height))" font-family="Helvetica, Arial, sans-serif" font-size="11">
            <title>\(TraceFormatting.xmlEscaped(title))</title>
            \(rect(0, 0, width, height, fill: "#ffffff"))
            \(text(8, 24, title, size: 16, weight: "bold"))
            \(text(8, 42, subtitle))
            \(axis.joined(separator: "\n"))
            \(body.joined(separator: "\n"))
            \(legend.joined(separator: "\n"))
            </svg>

            """
    }

    /// A round tick step (1, 2 or 5 × 10ⁿ ns) giving at most about ten ticks.
    static func tickStep(_ duration: UInt64) -> UInt64 {
        var magnitude: UInt64 = 1
        while magnitude * 10 <= duration / 10 { magnitude *= 10 }
        for factor: UInt64 in [1, 2, 5, 10] where duration / (magnitude * factor) <= 10 {
            return magnitude * factor
        }
        return magnitude * 10
    }

    // MARK: - Elements

    private static func bar(_ interval: TraceTimeline.Interval, x: Double, end: Double, y: Double) -> String {
        let width = max(end - x, 1)
        let outline = interval.finished ? "" : " stroke=\"#000000\" stroke-dasharray=\"3,2\""
        var tooltip = "\(interval.name) — \(TraceFormatting.duration(interval.duration))"
        if !interval.finished { tooltip += " (unfinished)" }
        for detail in interval.details { tooltip += "\n\(detail.key): \(detail.value)" }
        var element = "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(width))\" height=\"\(n(barHeight))\" rx=\"2\" "
            + "fill=\"\(color(interval.category))\"\(outline)><title>\(TraceFormatting.xmlEscaped(tooltip))</title></rect>"
        let fits = Int((width - 6) / 6.2)
        if fits >= 4 {
            let label = interval.name.count <= fits ? interval.name : String(interval.name.prefix(fits - 1)) + "…"
            element += "\n" + text(x + 3, y + 10, label, fill: interval.category.look.textColor)
        }
        return element
    }

    private static func mark(_ instant: TraceTimeline.Instant, x: Double, top: Double, height: Double) -> String {
        let look = instant.kind.look
        return line(x, top, x, top + height, stroke: look.color) + "\n"
            + triangle(x, top, fill: look.color, title: "\(look.key): \(instant.name)")
    }

    private static func triangle(_ x: Double, _ y: Double, fill: String, title: String? = nil) -> String {
        let tip = title.map { "<title>\(TraceFormatting.xmlEscaped($0))</title>" } ?? ""
        return "<path d=\"M \(n(x - 5)) \(n(y)) L \(n(x + 5)) \(n(y)) L \(n(x)) \(n(y + 8)) Z\" fill=\"\(fill)\">\(tip)</path>"
    }

    private static func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, fill: String, extra: String = "") -> String {
        "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(w))\" height=\"\(n(h))\" fill=\"\(fill)\"\(extra)/>"
    }

    private static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String) -> String {
        "<line x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\" stroke=\"\(stroke)\" stroke-width=\"0.5\"/>"
    }

    private static func text(
        _ x: Double, _ y: Double, _ content: String, size: Int? = nil, weight: String? = nil,
        anchor: String? = nil, fill: String? = nil, title: String? = nil
    ) -> String {
        var attributes = "x=\"\(n(x))\" y=\"\(n(y))\""
        if let size { attributes += " font-size=\"\(size)\"" }
        if let weight { attributes += " font-weight=\"\(weight)\"" }
        if let anchor { attributes += " text-anchor=\"\(anchor)\"" }
        if let fill { attributes += " fill=\"\(fill)\"" }
        let tip = title.map { "<title>\(TraceFormatting.xmlEscaped($0))</title>" } ?? ""
        return "<text \(attributes)>\(tip)\(TraceFormatting.xmlEscaped(content))</text>"
    }

    /// Coordinates with one decimal, never in exponent notation.
    private static func n(_ value: Double) -> String { TraceFormatting.decimal(value, places: 1) }
}
