/// The SVG elements the timeline is drawn with: shapes, text, the outcome
/// stripes, and numbers that SVG readers all accept.
enum SVGElements {
    /// Average advance of one character at the timeline's 11 px font.
    static let characterWidth = 6.2

    static func textWidth(_ text: String) -> Double { Double(text.count) * characterWidth }

    /// One stripe pattern per outcome, referenced as `url(#outcome-KEY)`.
    static var outcomePatterns: String {
        let patterns = TraceTimeline.Outcome.allCases.map { outcome in
            let look = outcome.look
            return "<pattern id=\"outcome-\(look.key)\" width=\"5\" height=\"5\" patternUnits=\"userSpaceOnUse\" "
                + "patternTransform=\"rotate(\(look.angle))\"><rect width=\"2\" height=\"5\" fill=\"\(look.color)\"/></pattern>"
        }
        return "<defs>\n" + patterns.joined(separator: "\n") + "\n</defs>"
    }

    static func triangle(_ x: Double, _ y: Double, fill: String, title: String? = nil) -> String {
        let tip = title.map { "<title>\(TraceFormatting.xmlEscaped($0))</title>" } ?? ""
        return "<path d=\"M \(n(x - 5)) \(n(y)) L \(n(x + 5)) \(n(y)) L \(n(x)) \(n(y + 8)) Z\" fill=\"\(fill)\">\(tip)</path>"
    }

    static func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, fill: String, extra: String = "") -> String {
        "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(w))\" height=\"\(n(h))\" fill=\"\(fill)\"\(extra)/>"
    }

    static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String) -> String {
        "<line x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\" stroke=\"\(stroke)\" stroke-width=\"0.5\"/>"
    }

    static func text(
        _ x: Double, _ y: Double, _ content: String, size: Int? = nil, weight: String? = nil,
        anchor: String? = nil, fill: String? = nil, title: String? = nil, extra: String = ""
    ) -> String {
        var attributes = "x=\"\(n(x))\" y=\"\(n(y))\""
        if let size { attributes += " font-size=\"\(size)\"" }
        if let weight { attributes += " font-weight=\"\(weight)\"" }
        if let anchor { attributes += " text-anchor=\"\(anchor)\"" }
        if let fill { attributes += " fill=\"\(fill)\"" }
        let tip = title.map { "<title>\(TraceFormatting.xmlEscaped($0))</title>" } ?? ""
        return "<text \(attributes)\(extra)>\(tip)\(TraceFormatting.xmlEscaped(content))</text>"
    }

    /// Coordinates with one decimal, never in exponent notation.
    static func n(_ value: Double) -> String { TraceFormatting.decimal(value, places: 1) }
}
