import ConcurrencyToolkit
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
@testable import FileSqueezerCore

/// The walk by several walkers (``SideBySideWalk``) finds what one walker,
/// depth first, finds, in the same order: plans, notes, failures and the
/// temporaries of killed runs it removed.
@Suite("Side-by-side walk")
struct SideBySideWalkTests {
    /// What a discovery found, in order, as text a failed comparison shows.
    static func found(_ discovery: Discovery) -> [String] {
        discovery.plans.map { "plan \($0.relativePath) \($0.size) absent=\($0.destinationAbsent)" }
            + discovery.notes.map { "note \($0)" }
            + discovery.failures.map { "failure \($0.path): \($0.reason ?? "")" }
            + discovery.staleRemoved.map { "removed \($0)" }
    }

    /// One walker, depth first, with no job and no task: the walk as it was.
    static func depthFirst(_ path: String, recursive: Bool = true) throws -> Discovery {
        let root = try Folder.open(path)
        var scan = FolderScan(recursive: recursive, force: false)
        scan.list(root, relative: "", output: OutputFolder(existing: root), isTop: true)
        #expect(scan.topFailure == nil)
        return scan.found
    }

    /// A tree with every kind of entry, files between subfolders in name
    /// order, a narrow top (one folder holds most of it, so the walk splits
    /// again below it) and folders deeper than ``SideBySideWalk/splitDepth``.
    static func makeTree(_ scratch: Scratch) throws {
        for name in ["a.txt", "c.txt", "e.gz", "e", "z.txt"] {
            try scratch.file(name, Data(name.utf8))
        }
        _ = try scratch.folder("b/empty")
        try scratch.file("d/d.txt", Data("d".utf8))
        #expect(symlink("a.txt", scratch.path + "/link") == 0)
        #expect(mkfifo(scratch.path + "/pipe", 0o600) == 0)
        for outer in 0..<3 {
            for inner in 0..<25 {
                let folder = "narrow/o\(outer)/i\(inner)"
                try scratch.file("\(folder)/f\(inner).txt", Data(repeating: UInt8(inner), count: inner))
                try scratch.file("\(folder)/deeper/still/deepest/g.txt", Data("g\(outer)\(inner)".utf8))
                if inner % 7 == 0 { try scratch.file("\(folder)/already.tgz", Data()) }
            }
            try scratch.file("narrow/o\(outer).txt", Data("between".utf8))
        }
        try scratch.file("narrow/only/one/chain/to/the/bottom.txt", Data("bottom".utf8))
    }

    /// The tree's files to compress: 4 at the top and 1 in d (not e.gz), 2
    /// in each of narrow's 75 inner folders, 3 between them, 1 at the bottom.
    static let planCount = 4 + 1 + 150 + 3 + 1

    @Test("every walker count finds what one walker finds, depth first, in the same order")
    func sameAsDepthFirst() async throws {
        let scratch = try Scratch()
        try Self.makeTree(scratch)
        let expected = Self.found(try Self.depthFirst(scratch.path))
        let plans = expected.filter { $0.hasPrefix("plan ") }.count
        #expect(plans == Self.planCount)
        #expect(expected.contains { $0.hasPrefix("note e.gz: already has") })
        #expect(expected.contains { $0.hasPrefix("note link: is a symbolic link") })
        for walkers in [1, 2, 3, 8] {
            let discovery = try await discoverFiles(in: scratch.path, recursive: true, output: nil, walkers: walkers)
            #expect(Self.found(discovery) == expected, "walkers: \(walkers)")
        }
    }

    @Test("every folder is listed in a job on the lanes, never on the caller's actor; with the lanes shut down, in the caller, and nothing is left out")
    @MainActor
    func listsOnLanes() async throws {
        let scratch = try Scratch()
        try Self.makeTree(scratch)
        let expected = Self.found(try Self.depthFirst(scratch.path))
        let lanes = BlockingExecutor(width: 2, label: "walk-test")
        let discovery = try await discoverFiles(in: scratch.path, recursive: true, output: nil, walkers: 2, lanes: lanes)
        #expect(Self.found(discovery) == expected)
        // The top; b, d and narrow each a part of one, listed and split again
        // (narrow's o0, o1, o2 and its other entries); at least one job each.
        let jobs = lanes.metrics.completed
        #expect(jobs >= 1 + 3, "jobs: \(lanes.metrics)")
        await lanes.shutdown()
        let inCaller = try await discoverFiles(in: scratch.path, recursive: true, output: nil, walkers: 2, lanes: lanes)
        #expect(Self.found(inCaller) == expected)
        #expect(lanes.metrics.completed == jobs)
    }

    @Test("without --recursive the top folder alone is listed, its subfolders noted")
    func notRecursive() async throws {
        let scratch = try Scratch()
        try Self.makeTree(scratch)
        let expected = Self.found(try Self.depthFirst(scratch.path, recursive: false))
        #expect(expected.contains("note narrow: is a folder (use --recursive) - ignored"))
        let discovery = try await discoverFiles(in: scratch.path, recursive: false, output: nil, walkers: 2)
        #expect(Self.found(discovery) == expected)
    }

    @Test("a subfolder replaced after it was listed is a failure in its place, and the rest is walked")
    func replacedSubfolder() async throws {
        let scratch = try Scratch()
        try Self.makeTree(scratch)
        let root = try Folder.open(scratch.path)
        var listing = FolderScan(recursive: true, force: false)
        listing.pieces = []
        listing.list(root, relative: "", output: OutputFolder(existing: root), isTop: true)
        let subfolders = (listing.pieces ?? []).compactMap { piece -> FolderScan.Subfolder? in
            if case .subfolder(let subfolder) = piece { subfolder } else { nil }
        }
        #expect(subfolders.map(\.shown) == ["b", "d", "narrow"])
        // d swapped for another folder after the listing saw it (moved
        // aside, not removed: a new folder could get a freed inode number).
        #expect(rename(scratch.path + "/d", scratch.path + "/d-moved") == 0)
        try scratch.file("d/other.txt", Data("o".utf8))
        var scan = FolderScan(recursive: true, force: false)
        scan.enter(subfolders[1])
        #expect(Self.found(scan.found) == ["failure d: was replaced during the run (another folder has its name); left alone"])
        scan = FolderScan(recursive: true, force: false)
        scan.enter(subfolders[2])
        let narrowPlans = scan.found.plans.count
        #expect(narrowPlans == Self.planCount - 5)
    }

    @Test("parts are runs of consecutive subfolders, at most eight per walker, none empty")
    func parts() {
        for (count, walkers) in [(0, 2), (1, 2), (5, 2), (16, 2), (17, 2), (100, 2), (100, 1), (1000, 3)] {
            let parts = SideBySideWalk.parts(of: Array(0..<count), walkers: walkers)
            #expect(Array(parts.joined()) == Array(0..<count))
            #expect(parts.count == min(count, 8 * walkers))
            #expect(parts.allSatisfy { !$0.isEmpty })
            #expect((parts.map(\.count).max() ?? 0) - (parts.map(\.count).min() ?? 0) <= 1)
        }
    }

    @Test("a hundred folders, walked by any number of walkers, come out in name order")
    func hundredFolders() async throws {
        let scratch = try Scratch()
        for index in 0..<100 { try scratch.file(String(format: "d%03d/f", index), Data("x".utf8)) }
        let expected = Self.found(try Self.depthFirst(scratch.path))
        #expect(expected.count == 100)
        for walkers in [1, 2, 5, 13] {
            let discovery = try await discoverFiles(in: scratch.path, recursive: true, output: nil, walkers: walkers)
            #expect(Self.found(discovery) == expected, "walkers: \(walkers)")
        }
    }
}
