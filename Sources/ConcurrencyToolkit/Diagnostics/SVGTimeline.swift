/// Draws a timeline as one self-contained SVG file: no scripts, no external
/// fonts or styles, so a browser, an image viewer or a Markdown renderer shows it.
///
/// Layout, top to bottom: title; the whole recording (`SVGTimelinePanel`: a
/// row per role, then waits and task time); when some work is too short to
/// read there, a focus panel magnifying the stretch where most of it is
/// (marked on the overview by a blue band); the legend.
enum SVGTimeline {
    typealias E = SVGElements

    static func color(_ category: TraceTimeline.Category) -> String { category.look.color }

    static func render(_ timeline: TraceTimeline, title: String) -> String {
        let duration = max(timeline.duration, 1)
        let overview = SVGTimelinePanel(timeline: timeline, start: 0, end: duration)
        var (body, y) = overview.draw(top: 54)

        if let focus = focusWindow(timeline) {
            let panel = SVGTimelinePanel(timeline: timeline, start: focus.start, end: focus.end)
            let band = E.rect(
                overview.x(focus.start), 72, max(overview.x(focus.end) - overview.x(focus.start), 2), y - 72,
                fill: "#1f77b4", extra: " fill-opacity=\"0.12\" stroke=\"#1f77b4\" stroke-width=\"0.5\" class=\"focus-band\"")
            body.insert(band, at: 0)
            let zoom = TraceFormatting.decimal(Double(duration) / Double(max(focus.end - focus.start, 1)), places: 0)
            y += 24
            body.append("<g class=\"focus\" data-start=\"\(focus.start)\" data-end=\"\(focus.end)\">")
            body.append(E.text(
                8, y + 12,
                "Zoom ×\(zoom): \(TraceFormatting.duration(focus.start)) – \(TraceFormatting.duration(focus.end)), "
                    + "where most of the work too short to read above happened (blue band)",
                size: 13, weight: "bold"))
            let (elements, bottom) = panel.draw(top: y + 16)
            body += elements
            body.append("</g>")
            y = bottom
        }

        let (legend, height) = legend(top: y + 20, actors: !timeline.actors.isEmpty)
        let width = SVGTimelinePanel.labelWidth + SVGTimelinePanel.plotWidth + 20
        let subtitle = "\(TraceFormatting.duration(timeline.duration)) · \(counted(timeline.threads.count, "OS thread")) in "
            + "\(counted(timeline.rows.count, "row")) · \(counted(timeline.eventCount, "event"))"
            + (timeline.discardedEventCount > 0 ? " · \(timeline.discardedEventCount) late events discarded" : "")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(E.n(width))" height="\(E.n(height))" \
            viewBox="0 0 \(E.n(width)) \(E.n(height))" font-family="Helvetica, Arial, sans-serif" font-size="11">
            <title>\(TraceFormatting.xmlEscaped(title))</title>
            \(E.outcomePatterns)
            \(E.rect(0, 0, width, height, fill: "#ffffff"))
            \(E.text(8, 24, title, size: 16, weight: "bold"))
            \(E.text(8, 42, subtitle))
            \(body.joined(separator: "\n"))
            \(legend.joined(separator: "\n"))
            </svg>

            """
    }

    /// "1 row", "3 rows": the subtitle's counts.
    private static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// The legend's elements and the picture's full height; `actors`: the
    /// trace has monitored actors (their job colour and queue band).
    private static func legend(top: Double, actors: Bool) -> ([String], Double) {
        var legend: [String] = []
        var lx = 8.0
        var ly = top
        func advance(_ width: Double) {
            lx += width
            if lx > SVGTimelinePanel.labelWidth + SVGTimelinePanel.plotWidth - 120 { (lx, ly) = (8, ly + 20) }
        }
        for category in TraceTimeline.Category.allCases where actors || !category.look.inLegendOnlyWhenUsed {
            legend.append(E.rect(lx, ly, 14, SVGTimelinePanel.barHeight, fill: color(category)))
            legend.append(E.text(lx + 18, ly + 10, category.label))
            advance(40 + E.textWidth(category.label))
        }
        if actors {
            legend.append(E.rect(lx, ly, 14, SVGTimelinePanel.barHeight, fill: SVGActorQueue.color))
            legend.append(E.text(lx + 18, ly + 10, SVGActorQueue.legendLabel))
            advance(40 + E.textWidth(SVGActorQueue.legendLabel))
        }
        for kind in TraceTimeline.Instant.Kind.allCases {
            legend.append(E.triangle(lx + 6, ly, fill: kind.look.color))
            legend.append(E.text(lx + 16, ly + 10, kind.look.label))
            advance(max(70, 30 + E.textWidth(kind.look.label)))
        }
        (lx, ly) = (8, ly + 20)
        let heading = "Ended badly (also written after the name):"
        legend.append(E.text(lx, ly + 10, heading, weight: "bold"))
        advance(E.textWidth(heading) * 1.15 + 12)
        for outcome in TraceTimeline.Outcome.allCases {
            let look = outcome.look
            legend.append(E.rect(
                lx, ly, 14, SVGTimelinePanel.barHeight, fill: "url(#outcome-\(look.key))",
                extra: " stroke=\"\(look.color)\" stroke-width=\"1.5\" data-outcome=\"\(look.key)\""))
            legend.append(E.text(lx + 18, ly + 10, look.label))
            advance(40 + E.textWidth(look.label))
        }
        (lx, ly) = (8, ly + 20)
        legend.append(E.rect(lx, ly, 14, SVGTimelinePanel.barHeight, fill: "#ffffff", extra: " stroke=\"#000000\" stroke-dasharray=\"3,2\""))
        legend.append(E.text(lx + 18, ly + 10, "dashed outline: still running or waiting when the recording ended"))
        return (legend, ly + 24)
    }

    /// A stretch worth magnifying: where most intervals whose name does not
    /// fit on their bar in the overview lie (zero-length ones aside: no zoom
    /// shows them), zoomed so that a typical one of them has room for its
    /// name (the window is between 1/100 and 1/2 of the recording). Nil
    /// when every name fits as it is.
    static func focusWindow(_ timeline: TraceTimeline) -> (start: UInt64, end: UInt64)? {
        let duration = timeline.duration
        guard duration > 0 else { return nil }
        func pixels(_ interval: TraceTimeline.Interval) -> Double {
            Double(interval.duration) / Double(duration) * SVGTimelinePanel.plotWidth
        }
        let cramped = timeline.intervals.filter { $0.duration > 0 && pixels($0) < E.textWidth($0.name) + 6 }
        guard !cramped.isEmpty else { return nil }
        let zooms = cramped.map { (E.textWidth($0.name) + 6) / pixels($0) }.sorted()
        let zoom = zooms[zooms.count / 2] * 1.2
        let width = min(max(UInt64(Double(duration) / zoom), duration / 100, 1), duration / 2)
        guard width > 0 else { return nil }
        // The window that holds the most cramped intervals' starts.
        let starts = cramped.map(\.start).sorted()
        var (best, bestCount, last) = (starts[0], 0, 0)
        for (first, startTime) in starts.enumerated() {
            while last < starts.count, starts[last] <= startTime + width { last += 1 }
            if last - first > bestCount { (best, bestCount) = (startTime, last - first) }
        }
        let margin = width / 20
        let start = min(best > margin ? best - margin : 0, duration - width)
        return (start, start + width)
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
}
