import Foundation

/// A temporary folder for one test, removed when the test ends.
package final class Scratch {
    package let url: URL
    package var path: String { url.path }

    package init() throws {
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
    package func file(_ relative: String, _ data: Data) throws -> String {
        let target = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: target)
        return target.path
    }

    package func folder(_ relative: String) throws -> String {
        let target = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        return target.path
    }

    /// Every file under `relative`, as paths relative to it, sorted.
    package func listing(_ relative: String = "") throws -> [String] {
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
    package func snapshot(_ relative: String = "") throws -> [String: Data] {
        let root = relative.isEmpty ? url : url.appendingPathComponent(relative)
        var result: [String: Data] = [:]
        for name in try listing(relative) {
            result[name] = try Data(contentsOf: root.appendingPathComponent(name))
        }
        return result
    }
}
