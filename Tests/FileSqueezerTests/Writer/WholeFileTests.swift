import Foundation
import Testing
@testable import FileSqueezerCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport

/// A whole file (stages 1 and 2) through `SegmentedFile`: a segment that
/// streams, so memory does not grow with the file's size.
@Suite("Whole-file compression")
struct WholeFileTests {
    /// Bytes in the files this process has open under `folder` other than
    /// `original`: the temporary output, named or not (`O_TMPFILE` shows as
    /// `folder/#N (deleted)`). `nil` where there is no `/proc/self/fd`.
    static func temporaryBytes(in folder: String, besides original: String) -> Int64? {
        #if os(Linux)
        // /proc shows resolved paths.
        let folder = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
        let original = URL(fileURLWithPath: original).resolvingSymlinksInPath().path
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        var total: Int64 = 0
        for name in descriptors {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name),
                target.hasPrefix(folder + "/"), target != original, let descriptor = Int32(name)
            else { continue }
            var info = stat()
            if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG { total += Int64(info.st_size) }
        }
        return total
        #else
        return nil
        #endif
    }

    @Test("a whole file's output is written as it is deflated, not held until its end; every chunk is progress")
    func streams() throws {
        let scratch = try Scratch()
        let size = 2 << 20
        let original = try scratch.file("noise.bin", Sample.random(size, seed: 21))
        let chunk = 64 * 1024
        let compressor = FileCompressor(level: 1, force: false, chunkSize: chunk, temporaryFiles: TemporaryFiles())
        let plan = FilePlan(
            source: original, relativePath: "noise.bin", destination: original + ".gz", size: Int64(size))
        let events = HookedEvents()
        // Read in the hook (the compressing thread), before the last chunk.
        let writtenBeforeTheEnd = Locked<Int64?>(nil)
        let folder = scratch.path
        events.onProgress {
            guard let step = events.recorded.progress(of: 0).last, step.total < Int64(size) else { return }
            guard let bytes = Self.temporaryBytes(in: folder, besides: original) else { return }
            writtenBeforeTheEnd.withLock { $0 = max($0 ?? 0, bytes) }
        }
        let outcome = compressWholeFile(0, plan, with: compressor, channels: events) { false }
        #expect(outcome.status == .compressed)
        // Incompressible: about a byte out per byte in, written a chunk at a time.
        #if os(Linux)
        let written = writtenBeforeTheEnd.value ?? 0
        #expect(written > Int64(size / 2), "written before the end: \(written)")
        #endif
        let totals = events.recorded.progress(of: 0).map(\.total)
        #expect(totals == (1...(size / chunk)).map { Int64($0 * chunk) } + [Int64(size)])
        #expect(try runTool("/usr/bin/gzip", ["-t", original + ".gz"]).status == 0)
        #expect(try runTool("/usr/bin/gzip", ["-dc", original + ".gz"]).output == Sample.random(size, seed: 21))
    }
}
