/// The band under a monitored actor's row: its queue depth over time as a
/// step chart, scaled to the deepest the queue was in the recording (the
/// label at the left says how deep that was). Jobs running are the bars
/// on the row above it.
enum SVGActorQueue {
    typealias E = SVGElements
    static let bandHeight = 22.0
    static let color = "#e7ba52"
    static let legendLabel = "monitored actor queue depth (band under its row)"

    /// The band's elements, for `panel`'s time range, from `top` down.
    static func band(_ actor: TraceTimeline.ActorTrack, in panel: SVGTimelinePanel, top: Double) -> [String] {
        let deepest = max(actor.maxDepth, 1)
        let plotHeight = bandHeight - 6
        func y(_ depth: Int) -> Double { top + bandHeight - 3 - Double(depth) / Double(deepest) * plotHeight }
        // The depth in effect when the panel starts, then each change inside it.
        var depth = actor.samples.last { $0.time <= panel.start }?.depth ?? 0
        var path = "M \(E.n(panel.x(panel.start))) \(E.n(y(0))) L \(E.n(panel.x(panel.start))) \(E.n(y(depth)))"
        for sample in actor.samples where sample.time > panel.start && sample.time <= panel.end && sample.depth != depth {
            let x = E.n(panel.x(sample.time))
            path += " L \(x) \(E.n(y(depth))) L \(x) \(E.n(y(sample.depth)))"
            depth = sample.depth
        }
        path += " L \(E.n(panel.x(panel.end))) \(E.n(y(depth))) L \(E.n(panel.x(panel.end))) \(E.n(y(0))) Z"
        let label = actor.maxDepth == 0 ? "queue: never waited" : "queue, up to \(actor.maxDepth)"
        let tooltip = "\(actor.label): jobs waiting over time, up to \(actor.maxDepth)"
        return [
            "<g class=\"queue-depth\" data-actor=\"\(TraceFormatting.xmlEscaped(actor.label))\" data-max-depth=\"\(actor.maxDepth)\">",
            "<path d=\"\(path)\" fill=\"\(color)\" fill-opacity=\"0.7\" stroke=\"#b8860b\" stroke-width=\"0.5\">"
                + "<title>\(TraceFormatting.xmlEscaped(tooltip))</title></path>",
            E.text(20, top + 14, label, size: 10, fill: "#555555"),
            "</g>",
        ]
    }
}
