import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

@testable import ConcurrencyToolkit
import TestSupport

/// Collects what the exports promise: rows, bars, outcomes, and every text.
final class SVGReader: NSObject, XMLParserDelegate {
    struct Row {
        var name = ""
        var threads: [String]
        /// The tooltip of every bar drawn in the row.
        var bars: [String] = []
    }

    struct Bar {
        var kind: String
        var outcome: String?
        var tooltip = ""
        /// The name written on or after the bar, if any.
        var label: String?
        var inFocus: Bool
    }

    /// The overview's rows (the focus panel repeats them).
    var rows: [Row] = []
    var bars: [Bar] = []
    var barFills: [String] = []
    var texts: [String] = []
    var root: String?
    var focusRange: (start: UInt64, end: UInt64)?
    private var current = ""
    /// Open elements: name, and class for groups or "bar" for a bar's rect.
    private var stack: [(name: String, kind: String)] = []
    private var inRow = false
    private var inFocus = false
    private var inBar = false

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if root == nil { root = name }
        var kind = attributes["class"] ?? ""
        if name == "g", kind == "focus" {
            inFocus = true
            focusRange = (UInt64(attributes["data-start"] ?? "") ?? 0, UInt64(attributes["data-end"] ?? "") ?? 0)
        }
        if name == "g", kind == "row" || kind == "lane", !inFocus {
            // "lane" and data-thread-id: the layout before rows were roles.
            let threads = attributes["data-threads"].map { $0.split(separator: " ").map(String.init) }
            rows.append(Row(threads: threads ?? [attributes["data-thread-id"] ?? ""]))
            inRow = true
        }
        if name == "g", kind == "bar" {
            bars.append(Bar(kind: attributes["data-kind"] ?? "", outcome: attributes["data-outcome"], inFocus: inFocus))
            inBar = true
        }
        if name == "rect", attributes["rx"] != nil, let fill = attributes["fill"] {
            barFills.append(fill)
            kind = "bar"
        }
        stack.append((name, kind))
        current = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { current += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        let parent = stack.dropLast().last
        if name == "text" || name == "title" { texts.append(current) }
        if name == "text", inRow, !inBar, rows.last?.name == "" { rows[rows.count - 1].name = current }
        if name == "title", parent?.kind == "bar" {
            if inRow { rows[rows.count - 1].bars.append(current) }
            if inBar { bars[bars.count - 1].tooltip = current }
        }
        if name == "text", inBar { bars[bars.count - 1].label = current }
        if name == "g" {
            switch stack.last?.kind {
            case "row", "lane": if !inFocus { inRow = false }
            case "focus": inFocus = false
            case "bar": inBar = false
            default: break
            }
        }
        stack.removeLast()
        current = ""
    }

    static func read(_ svg: String) throws -> SVGReader {
        let reader = SVGReader()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = reader
        let ok = parser.parse()
        #expect(ok, "SVG is not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "?")")
        return reader
    }
}

@Suite struct SVGTimelineTests {
    @Test func parsesAsXMLWithOneLanePerThread() throws {
        let trace = SampleTraces.mixed
        let reader = try SVGReader.read(trace.svgTimeline(title: "mixed <sample> & co"))
        #expect(reader.root == "svg")
        // A row per role with work in it; pool thread 20 only waited.
        #expect(reader.rows.map(\.name) == ["main", "io lane 0", "io lane 1"])
        #expect(reader.rows.map(\.threads) == [["1"], ["10"], ["11"]])
        #expect(reader.texts.contains("mixed <sample> & co"))  // escaped, then read back intact
    }

    @Test func barsAreColouredByKind() throws {
        let reader = try SVGReader.read(SampleTraces.mixed.svgTimeline())
        func count(_ category: TraceTimeline.Category) -> Int {
            reader.barFills.filter { $0 == SVGTimeline.color(category) }.count
        }
        #expect(count(.jobRunning) == 2)
        #expect(count(.jobQueued) == 2)
        #expect(count(.continuationWait) == 2)
        #expect(count(.span) == 2)
        #expect(count(.delivery) == 0)
    }

    @Test func showsAxisLegendMarkersAndTooltips() throws {
        let reader = try SVGReader.read(SampleTraces.mixed.svgTimeline())
        // 10 ms with a 1 ms step: 0 … 10 ms.
        #expect(reader.texts.contains("0 ns"))
        #expect(reader.texts.contains("5 ms"))
        #expect(reader.texts.contains("10 ms"))
        for category in TraceTimeline.Category.allCases where !category.look.inLegendOnlyWhenUsed {
            #expect(reader.texts.contains(category.label))
        }
        #expect(!reader.texts.contains(TraceTimeline.Category.actorJob.label))
        #expect(reader.texts.contains("marker: \(SampleTraces.markerName)"))
        #expect(reader.texts.contains { $0.hasPrefix("misuse: SafeContinuation created at App/Fetch.swift:12") })
        #expect(reader.texts.contains { $0.hasPrefix("wait at App/Stuck.swift:40 — 8 ms (unfinished)") })
    }

    @Test func recordedRunHasARowPerThreadThatWorked() async throws {
        let (_, recorded) = await withTraceRecording {
            marker("start")
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    group.addTask { span("child \(index)") { blockThread(milliseconds: 2) } }
                }
            }
        }
        // Every thread that ran a span or emitted the marker serves a row.
        let trace = recorded.withoutActors
        let seen = Set(trace.events { kind in
            switch kind {
            case .spanStarted, .marker: true
            default: false
            }
        }.map(\.threadID))
        let reader = try SVGReader.read(trace.svgTimeline())
        #expect(Set(reader.rows.flatMap(\.threads)) == Set(seen.map { "\($0)" }))
        #expect(reader.rows.map(\.name).count == Set(reader.rows.map(\.name)).count)
    }

    @Test func subtitleCountsInTheSingularAndPlural() async throws {
        let (_, recorded) = await withTraceRecording { marker("alone") }
        let one = recorded.withoutActors
        #expect(try SVGReader.read(one.svgTimeline()).texts.contains { $0.hasSuffix("· 1 OS thread in 1 row · 1 event") })
        let none = Trace(events: [], threads: [], duration: 0, discardedEventCount: 0)
        #expect(try SVGReader.read(none.svgTimeline()).texts.contains { $0.hasSuffix("· 0 OS threads in 0 rows · 0 events") })
    }

    @Test func emptyTraceIsStillAPicture() throws {
        let reader = try SVGReader.read(Trace(events: [], threads: [], duration: 0, discardedEventCount: 0).svgTimeline())
        #expect(reader.root == "svg")
        #expect(reader.rows.isEmpty)
    }
}
