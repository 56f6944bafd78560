/// JSON text for `--json`, written by hand so the app links no Foundation:
/// keys sorted, two spaces of indentation, as `JSONEncoder` with
/// `[.prettyPrinted, .sortedKeys]` writes them (`/` is not escaped, and an
/// empty array is `[]`). Absent optionals are left out, as `Codable` does.
///
/// ```swift
/// let text = JSONText.object([("b", .number(2)), ("a", .string("x"))]).rendered()
/// // {
/// //   "a" : "x",
/// //   "b" : 2
/// // }
/// ```
///
/// ``RunReport`` and ``FileOutcome`` stay `Codable` for readers (tests decode
/// the output with `JSONDecoder`), so a field added to them without a line
/// here fails those tests.
indirect enum JSONText {
    case string(String)
    case number(String)
    case bool(Bool)
    case array([JSONText])
    case object([(String, JSONText)])

    static func number(_ value: some BinaryInteger) -> JSONText { .number("\(value)") }

    /// A finite number as Swift prints it (shortest text that reads back
    /// exactly); JSON has no infinity or NaN, so those are written as 0.
    static func number(_ value: Double) -> JSONText { .number(value.isFinite ? "\(value)" : "0") }

    func rendered() -> String {
        var text = ""
        render(into: &text, indent: "")
        return text
    }

    private func render(into text: inout String, indent: String) {
        switch self {
        case .string(let value): Self.quote(value, into: &text)
        case .number(let value): text += value
        case .bool(let value): text += value ? "true" : "false"
        case .array(let elements):
            guard !elements.isEmpty else { text += "[]"; return }
            text += "[\n"
            for (position, element) in elements.enumerated() {
                text += indent + "  "
                element.render(into: &text, indent: indent + "  ")
                text += position == elements.count - 1 ? "\n" : ",\n"
            }
            text += indent + "]"
        case .object(let members):
            guard !members.isEmpty else { text += "{}"; return }
            text += "{\n"
            let sorted = members.sorted { $0.0 < $1.0 }
            for (position, (key, value)) in sorted.enumerated() {
                text += indent + "  "
                Self.quote(key, into: &text)
                text += " : "
                value.render(into: &text, indent: indent + "  ")
                text += position == sorted.count - 1 ? "\n" : ",\n"
            }
            text += indent + "}"
        }
    }

    /// RFC 8259's string escaping. The toolkit writes the same rule for its
    /// trace JSON, internally; the app uses only the toolkit's public API, and
    /// a JSON escaper is no concurrency tool to publish, so it is written here too.
    private static func quote(_ value: String, into text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}

extension RunReport {
    /// The report as `--json` prints it.
    var json: JSONText {
        var members: [(String, JSONText)] = [
            ("strategy", .string(strategy.rawValue)), ("placement", .string(placement.rawValue)),
            ("jobs", .number(jobs)), ("level", .number(level)), ("compressed", .number(compressed)),
            ("failed", .number(failed)), ("notFinished", .number(notFinished)), ("bytesIn", .number(bytesIn)),
            ("bytesOut", .number(bytesOut)), ("ratio", .number(ratio)), ("wallSeconds", .number(wallSeconds)),
            ("parallelism", .number(parallelism)),
            ("longestMainActorStallMilliseconds", .number(longestMainActorStallMilliseconds)),
            ("interrupted", .bool(interrupted)), ("notes", .array(notes.map(JSONText.string))),
            ("files", .array(files.map(\.json))),
        ]
        if let cpuSeconds { members.append(("cpuSeconds", .number(cpuSeconds))) }
        if let signal { members.append(("signal", .string(signal))) }
        if let stalls { members.append(("stalls", .array(stalls.map(\.json)))) }
        if let contentions { members.append(("contentions", .array(contentions.map(\.json)))) }
        return .object(members)
    }
}

extension RunStall {
    /// One stall's entry in `--json`'s `stalls`.
    var json: JSONText {
        var members: [(String, JSONText)] = [
            ("kind", .string(kind)), ("milliseconds", .number(milliseconds)), ("ongoing", .bool(ongoing)),
            ("backtrace", .array(backtrace.map(JSONText.string))),
        ]
        if let priority { members.append(("priority", .string(priority))) }
        if let blockedIn { members.append(("blockedIn", .string(blockedIn))) }
        return .object(members)
    }
}

extension RunContention {
    /// One episode's entry in `--json`'s `contentions`.
    var json: JSONText {
        var members: [(String, JSONText)] = [
            ("actor", .string(actor)), ("jobs", .number(jobs)), ("longestWaitMilliseconds", .number(longestWaitMilliseconds)),
            ("maxQueueDepth", .number(maxQueueDepth)), ("waitedMilliseconds", .number(waitedMilliseconds)),
            ("backtrace", .array(backtrace.map(JSONText.string))),
        ]
        if let heldBy { members.append(("heldBy", .string(heldBy))) }
        return .object(members)
    }
}

extension FileOutcome {
    /// One file's entry in `--json`'s `files`.
    var json: JSONText {
        var members: [(String, JSONText)] = [
            ("path", .string(path)), ("destination", .string(destination)), ("status", .string(status.rawValue)),
            ("bytesIn", .number(bytesIn)), ("bytesOut", .number(bytesOut)), ("seconds", .number(seconds)),
        ]
        if let reason { members.append(("reason", .string(reason))) }
        return .object(members)
    }
}
