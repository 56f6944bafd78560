#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Every temporary output file that exists right now, so an interrupt can
/// remove them all even if the job that made one never gets to run again.
///
/// ```swift
/// let temporaryFiles = TemporaryFiles()
/// let compressor = FileCompressor(level: 6, force: false, temporaryFiles: temporaryFiles)
/// // ... after the run, or on the way out after Ctrl-C:
/// temporaryFiles.removeAll()
/// ```
///
/// A named temporary is kept as its folder's descriptor and its name, and
/// removed with `unlinkat`, so a folder moved meanwhile is still cleaned.
/// An unnamed one (`O_TMPFILE`) is listed too, but there is nothing to
/// remove: it vanishes with the process.
final class TemporaryFiles: Sendable {
    private struct Entry {
        let folder: Folder
        let name: [UInt8]?
    }

    private let entries = VisibleMutex<[Int: Entry]>([:])
    private let leftovers = VisibleMutex<(lines: [String], taken: Int)>(([], 0))
    private let lastID = Atomic<Int>(0)

    init() {}

    /// Registers a temporary in `folder`: named `name`, or unnamed when `nil`.
    /// - Returns: The key that ``remove(_:)`` takes.
    func insert(_ folder: Folder, _ name: [UInt8]?) -> Int {
        let id = lastID.add(1, ordering: .relaxed).newValue
        entries.withLock { $0[id] = Entry(folder: folder, name: name) }
        return id
    }

    func remove(_ id: Int) { entries.withLock { _ = $0.removeValue(forKey: id) } }

    /// The temporary files not yet moved into place or cleaned up: paths
    /// for named ones, `FOLDER/(unnamed N)` for `O_TMPFILE` ones.
    var current: Set<String> {
        entries.withLock { entries in
            Set(entries.map { id, entry in
                entry.folder.path + "/" + (entry.name.map { FileName.display($0) } ?? "(unnamed \(id))")
            })
        }
    }

    /// Unlinks every registered named temporary file. Safe to call from any
    /// thread, more than once, and while jobs are still winding down.
    func removeAll() {
        let all = entries.withLock { entries in
            defer { entries.removeAll() }
            return entries
        }
        for entry in all.values {
            guard let name = entry.name else { continue }
            let code: Int32
            do {
                code = try entry.folder.withDescriptor { folder in
                    withCName(name) { unlinkat(folder, $0, 0) } == 0 ? 0 : errno
                }
            } catch {
                code = error.errno.code
            }
            if code != 0, code != ENOENT {
                couldNotRemove(entry.folder.path + "/" + FileName.display(name), errno: code)
            }
        }
    }

    /// Named temporaries that could not be removed (their folder was made
    /// read-only during the run, say), each with the reason, that no one
    /// took yet: the command names them on standard error, so nobody
    /// mistakes one for the leftover of a killed run. Each is a complete or
    /// partial `.gz` of this run, safe to delete. Each is given once: the
    /// end of the run and a forced exit may both ask, on different threads.
    ///
    /// ```swift
    /// for line in temporaryFiles.takeLeftBehind() { print(line) }
    /// // "/data/logs/.squeeze-4242-9f86d081884c7d65: Permission denied"
    /// ```
    func takeLeftBehind() -> [String] {
        leftovers.withLock { leftovers in
            defer { leftovers.taken = leftovers.lines.count }
            return Array(leftovers.lines[leftovers.taken...])
        }
    }

    /// Records a named temporary at `path` that `unlinkat` could not remove;
    /// once, though a job and ``removeAll()`` may both have tried.
    func couldNotRemove(_ path: String, errno code: Int32) {
        let line = "\(path): \(String(cString: strerror(code)))"
        leftovers.withLock { if !$0.lines.contains(line) { $0.lines.append(line) } }
    }
}
