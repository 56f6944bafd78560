import Foundation
@testable import FileSqueezerCore

/// A temporary folder for one test, removed when the test ends.
final class Scratch {
    let url: URL
    var path: String { url.path }

    init() throws {
        var base = NSTemporaryDirectory()
        while base.count > 1, base.hasSuffix("/") { base.removeLast() }
        var template = Array((base + "/file-squeezer-tests-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw CocoaError(.fileWriteUnknown)
        }
        url = URL(fileURLWithPath: String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `data` at `relative` (creating folders) and returns its path.
    @discardableResult
    func file(_ relative: String, _ data: Data) throws -> String {
        let target = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: target)
        return target.path
    }

    func folder(_ relative: String) throws -> String {
        let target = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        return target.path
    }

    /// Every file under `relative`, as paths relative to it, sorted.
    func listing(_ relative: String = "") throws -> [String] {
        let root = relative.isEmpty ? url : url.appendingPathComponent(relative)
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var names: [String] = []
        while let name = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: root.appendingPathComponent(name).path, isDirectory: &isFolder)
            if !isFolder.boolValue, !name.hasPrefix(".stdout-"), !name.hasPrefix(".stderr-") { names.append(name) }
        }
        return names.sorted()
    }

    /// The contents of every file under `relative`, to prove originals unchanged.
    func snapshot(_ relative: String = "") throws -> [String: Data] {
        let root = relative.isEmpty ? url : url.appendingPathComponent(relative)
        var result: [String: Data] = [:]
        for name in try listing(relative) {
            result[name] = try Data(contentsOf: root.appendingPathComponent(name))
        }
        return result
    }
}

/// Text-like bytes (compressible) and random bytes (not), deterministic.
enum Sample {
    static func text(_ count: Int, seed: UInt64 = 1) -> Data {
        let words = ["alpha", "beta", "gamma", "delta", "squeeze", "actor", "main", "task", "file", "chunk", "\n"]
        var generator = SplitMix64(seed: seed)
        var data = Data(capacity: count + 16)
        while data.count < count {
            data.append(contentsOf: words[Int(generator.next() % UInt64(words.count))].utf8)
            data.append(32)
        }
        return data.prefix(count)
    }

    static func random(_ count: Int, seed: UInt64 = 2) -> Data {
        var generator = SplitMix64(seed: seed)
        var data = Data(capacity: count + 8)
        while data.count < count { withUnsafeBytes(of: generator.next()) { data.append(contentsOf: $0) } }
        return data.prefix(count)
    }
}
