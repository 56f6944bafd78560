import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

@testable import ConcurrencyToolkit

/// Collects what the exports promise: lanes, bars, and every text.
private final class SVGReader: NSObject, XMLParserDelegate {
    var laneThreadIDs: [String] = []
    var barFills: [String] = []
    var texts: [String] = []
    var root: String?
    private var current = ""

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if root == nil { root = name }
        if name == "g", attributes["class"] == "lane", let id = attributes["data-thread-id"] { laneThreadIDs.append(id) }
        if name == "rect", attributes["rx"] != nil, let fill = attributes["fill"] { barFills.append(fill) }
        current = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { current += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text" || name == "title" { texts.append(current) }
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
        #expect(reader.laneThreadIDs == trace.threads.map { "\($0.id)" })
        for thread in trace.threads { #expect(reader.texts.contains(thread.name)) }
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
        for category in TraceTimeline.Category.allCases { #expect(reader.texts.contains(category.label)) }
        #expect(reader.texts.contains("marker: \(SampleTraces.markerName)"))
        #expect(reader.texts.contains { $0.hasPrefix("misuse: SafeContinuation created at App/Fetch.swift:12") })
        #expect(reader.texts.contains { $0.hasPrefix("wait at App/Stuck.swift:40 — 8 ms (unfinished)") })
    }

    @Test func recordedRunHasALanePerThreadSeen() async throws {
        let (_, trace) = await withTraceRecording {
            marker("start")
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    group.addTask { span("child \(index)") { _ = usleep(2_000) } }
                }
            }
        }
        let seen = Set(trace.events.map(\.threadID))
        let reader = try SVGReader.read(trace.svgTimeline())
        #expect(Set(reader.laneThreadIDs) == Set(seen.map { "\($0)" }))
        #expect(reader.laneThreadIDs.count == seen.count)
    }

    @Test func emptyTraceIsStillAPicture() throws {
        let reader = try SVGReader.read(Trace(events: [], threads: [], duration: 0, discardedEventCount: 0).svgTimeline())
        #expect(reader.root == "svg")
        #expect(reader.laneThreadIDs.isEmpty)
    }
}
