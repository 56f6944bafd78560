// Snippets/RecordATrace.swift: swift run RecordATrace [FOLDER]
import ConcurrencyToolkit
import Foundation

// The operation to look at: read every file of a folder (the first argument,
// or the current folder) on the two lanes of a blocking executor.
let folder = CommandLine.arguments.dropFirst().first ?? "."
let names = try FileManager.default.contentsOfDirectory(atPath: folder)
let io = BlockingExecutor(width: 2, label: "io")

let (sizes, trace) = try await withTraceRecording {
    try await names.concurrentMap(maxConcurrency: 2) { name in
        try await io.run { _ in
            span("read \(name)") { (try? Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))?.count ?? 0 }
        }
    }
}
try trace.chromeTraceJSON().write(toFile: "squeeze.json", atomically: true, encoding: .utf8)
try trace.svgTimeline(title: "read \(folder)").write(toFile: "squeeze.svg", atomically: true, encoding: .utf8)
print(trace.summary())
print("\(names.count) files, \(sizes.reduce(0, +)) bytes")
