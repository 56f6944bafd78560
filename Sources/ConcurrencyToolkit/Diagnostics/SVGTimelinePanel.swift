/// One time range of a timeline drawn across the SVG's width: its time axis,
/// a row per role (`main`, each lane, each monitored actor with its queue
/// depth under its jobs, other threads; work nested inside other work one
/// line lower), then the waits, task time and work that moved
/// between threads, a row group per kind. The overview is the whole
/// recording; the focus panel is a short, busy stretch of it, magnified.
struct SVGTimelinePanel {
    let timeline: TraceTimeline
    let start: UInt64
    let end: UInt64

    typealias E = SVGElements
    static let labelWidth = 200.0
    static let plotWidth = 1000.0
    static let rowHeight = 16.0
    static let barHeight = 12.0
    /// Lines per row; deeper nesting shares the last one.
    static let maximumDepth = 5

    /// The x of `time`, clamped to the panel.
    func x(_ time: UInt64) -> Double {
        let span = Double(max(end &- start, 1))
        let clamped = min(max(time, start), end)
        return Self.labelWidth + Double(clamped - start) / span * Self.plotWidth
    }

    func overlaps(_ from: UInt64, _ to: UInt64) -> Bool { to >= start && from <= end }

    /// Draws the panel from `top`; returns its elements and where it ends.
    func draw(top: Double) -> (elements: [String], bottom: Double) {
        var body: [String] = []
        var y = top + 30
        for (index, row) in timeline.rows.enumerated() {
            let onRow = timeline.intervals.compactMap { interval -> (TraceTimeline.Interval, depth: Int)? in
                guard interval.role == row.role, case .onRow(let depth) = interval.placement else { return nil }
                return (interval, min(depth, Self.maximumDepth))
            }
            let depth = onRow.map(\.depth).max() ?? 0
            let actor = timeline.actors.first { .actor(label: $0.label) == row.role }
            let barsHeight = Double(depth + 1) * Self.rowHeight + 8
            let height = barsHeight + (actor == nil ? 0 : SVGActorQueue.bandHeight)
            let threads = row.threads.map(String.init).joined(separator: " ")
            var group = ["<g class=\"row\" data-row=\"\(TraceFormatting.xmlEscaped(row.name))\" data-threads=\"\(threads)\">"]
            group.append(E.rect(0, y, Self.labelWidth + Self.plotWidth, height, fill: index % 2 == 0 ? "#f4f4f4" : "#ffffff"))
            group.append(E.text(8, y + 15, row.name, weight: "bold", title: rowTooltip(row)))
            group += bars(onRow.map { ($0.0, y + 4 + Double($0.depth) * Self.rowHeight) })
            if let actor { group += SVGActorQueue.band(actor, in: self, top: y + barsHeight) }
            for instant in timeline.instants where instant.role == row.role && overlaps(instant.time, instant.time) {
                let look = instant.kind.look
                group.append(E.line(x(instant.time), y, x(instant.time), y + height, stroke: look.color))
                group.append(E.triangle(x(instant.time), y, fill: look.color, title: "\(look.key): \(instant.name)"))
            }
            group.append("</g>")
            body += group
            y += height
        }

        let detached = timeline.intervals.filter { !$0.isOnRow }
        if !detached.isEmpty {
            y += 8
            body.append(E.text(8, y + 12, "Waits, tasks, and work that moved between threads", weight: "bold"))
            y += 20
            for category in TraceTimeline.Category.allCases {
                let members = detached.filter { $0.category == category }
                guard !members.isEmpty else { continue }
                let rows = (members.map { if case .detached(let r) = $0.placement { r } else { 0 } }.max() ?? 0) + 1
                let height = Double(rows) * Self.rowHeight + 8
                body.append("<g class=\"waits\" data-kind=\"\(category.key)\">")
                body.append(E.rect(0, y, Self.labelWidth + Self.plotWidth, height, fill: "#fafafa"))
                body.append(E.text(8, y + 15, category.label))
                body += bars(members.map {
                    guard case .detached(let row) = $0.placement else { return ($0, y) }
                    return ($0, y + 4 + Double(row) * Self.rowHeight)
                })
                body.append("</g>")
                y += height
            }
        }
        return (axis(top: top, bottom: y) + body, y)
    }

    private func rowTooltip(_ row: TraceTimeline.Row) -> String {
        let names = row.threads.map { id in
            let thread = timeline.threads.first { $0.id == id }
            return thread.map { "\($0.id) (\($0.systemName.isEmpty ? $0.name : $0.systemName))" } ?? "\(id)"
        }
        return "\(row.name) — OS thread\(names.count == 1 ? "" : "s") \(names.joined(separator: ", "))"
    }

    /// Ticks at a round step, labelled with the time since the recording began.
    private func axis(top: Double, bottom: Double) -> [String] {
        var axis: [String] = []
        let step = SVGTimeline.tickStep(max(end &- start, 1))
        var tick = (start + step - 1) / step * step
        while tick <= end {
            axis.append(E.line(x(tick), top + 18, x(tick), bottom, stroke: "#cccccc"))
            // From 0, "1.2 s" reads well; inside a magnified stretch, the step's unit keeps ticks apart.
            let label = start == 0 ? TraceFormatting.duration(tick) : TraceFormatting.duration(tick, inUnitOf: step)
            axis.append(E.text(x(tick), top + 12, label, anchor: tick == start ? "start" : "middle"))
            tick += step
        }
        return axis
    }

    // MARK: - Bars

    /// Draws bars that share lines; a name that does not fit in its bar is
    /// written after it when the line is free until the next bar, else left
    /// to the tooltip and the focus panel, never cut short.
    private func bars(_ members: [(TraceTimeline.Interval, y: Double)]) -> [String] {
        var elements: [String] = []
        let lines = Dictionary(grouping: members.filter { overlaps($0.0.start, $0.0.end) }, by: \.y)
        for (_, line) in lines.sorted(by: { $0.key < $1.key }) {
            let ordered = line.sorted { $0.0.start < $1.0.start }
            for (index, (interval, y)) in ordered.enumerated() {
                let next = ordered.dropFirst(index + 1).first { x($0.0.start) > x(interval.end) }
                let room = (next.map { x($0.0.start) } ?? Self.labelWidth + Self.plotWidth) - x(interval.end) - 6
                elements.append(bar(interval, y: y, roomAfter: room))
            }
        }
        return elements
    }

    private func bar(_ interval: TraceTimeline.Interval, y: Double, roomAfter: Double) -> String {
        let left = x(interval.start)
        let width = max(x(interval.end) - left, 1)
        let outcome = interval.outcome?.look
        var tooltip = "\(interval.name) — \(TraceFormatting.duration(interval.duration))"
        if !interval.finished { tooltip += " (unfinished)" }
        for detail in interval.details { tooltip += "\n\(detail.key): \(detail.value)" }
        var stroke = interval.finished ? "" : " stroke=\"#000000\" stroke-dasharray=\"3,2\""
        if let outcome { stroke = " stroke=\"\(outcome.color)\" stroke-width=\"1.5\"" }
        var group = "<g class=\"bar\" data-kind=\"\(interval.category.key)\""
            + (outcome.map { " data-outcome=\"\($0.key)\"" } ?? "") + ">\n"
        group += "<rect x=\"\(E.n(left))\" y=\"\(E.n(y))\" width=\"\(E.n(width))\" height=\"\(E.n(Self.barHeight))\" rx=\"2\" "
            + "fill=\"\(interval.category.look.color)\"\(stroke)><title>\(TraceFormatting.xmlEscaped(tooltip))</title></rect>"
        if let outcome {
            group += "\n" + E.rect(left, y, width, Self.barHeight, fill: "url(#outcome-\(outcome.key))", extra: " opacity=\"0.6\"")
        }
        let candidates = [outcome.map { "\(interval.name) — \($0.label)" }, interval.name].compactMap { $0 }
        if let inside = candidates.first(where: { E.textWidth($0) + 6 <= width }) {
            group += "\n" + E.text(left + 3, y + 10, inside, fill: interval.category.look.textColor)
        } else if let after = candidates.first(where: { E.textWidth($0) <= roomAfter }) {
            group += "\n" + E.text(left + width + 3, y + 10, after, fill: outcome?.color ?? "#222222")
        }
        return group + "\n</g>"
    }
}
