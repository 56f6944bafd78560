#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a scan of the folder found: the files to compress, the entries
/// left alone with the reason (shown as notes, like gzip's "ignored" lines),
/// and the entries that could not be inspected (failures: always shown,
/// counted in `--json`'s `failed`, exit status 1).
///
/// ```swift
/// let discovery = try discoverFiles(in: "logs", recursive: true, output: nil)
/// for note in discovery.notes { print(note) }        // "link.txt: is a symbolic link - ignored"
/// for failure in discovery.failures { print(failure) } // "sub/a.txt: cannot inspect: Permission denied"
/// ```
struct Discovery: Sendable {
    var plans: [FilePlan] = []
    var notes: [String] = []
    /// Entries found and not compressed for a reason other than a documented
    /// skip: each names the entry and why; the run counts them as failed.
    ///
    /// ```swift
    /// for failure in discovery.failures { print("\(failure.path): \(failure.reason ?? "")") }
    /// // "locked: cannot open the folder: Permission denied"
    /// ```
    var failures: [FileOutcome] = []
    /// Temporary files of killed runs that discovery removed (only provably
    /// ours, in folders the run writes to: ``StaleTemporary``); ``notes``
    /// says so in one line.
    ///
    /// ```swift
    /// print(discovery.staleRemoved)   // ["sub/.squeeze-4242-9f86d081884c7d65"]
    /// ```
    var staleRemoved: [String] = []
    /// The `--output` folder, if any (it knows the folders the run made).
    var outputRoot: OutputFolder?
}

/// The folder argument itself is unusable; nothing was attempted.
///
/// ```swift
/// do { _ = try discoverFiles(in: path, recursive: false, output: nil) }
/// catch { print("file-squeezer: \(error)") }   // "/tmp/x: no such folder"
/// ```
enum FolderError: Error, Equatable, CustomStringConvertible {
    case missing(String)
    case notAFolder(String)
    case unreadable(String, errno: Int32)
    /// `--output` exists and is not a folder (``OutputFolder/problem(with:)``);
    /// the text names the path and says what it is.
    ///
    /// ```swift
    /// do { _ = try discoverFiles(in: "logs", recursive: false, output: "notes.txt") }
    /// catch .unusableOutput(let problem) { print(problem) }   // exit 2 in the command
    /// ```
    case unusableOutput(String)

    var description: String {
        switch self {
        case .missing(let path): "\(path): no such folder"
        case .notAFolder(let path): "\(path): not a folder (give the folder that holds the files)"
        case .unreadable(let path, let code): "\(path): cannot list the folder: \(String(cString: strerror(code)))"
        case .unusableOutput(let problem): problem
        }
    }
}

/// Lists the regular files of `folder` (and of its subfolders when
/// `recursive`) and decides where each `.gz` goes: beside the original, or
/// under `output` with the same subfolders.
///
/// ```swift
/// let discovery = try discoverFiles(in: "photos", recursive: true, output: "/backup/photos")
/// // photos/2024/a.jpg → /backup/photos/2024/a.jpg.gz
/// ```
///
/// Paths are in ``FileName/display(_:)`` form (`CommandLine.unsafeArgv`'s
/// bytes through ``FileName/display(_:)``). It walks by descriptor, as fts
/// and gzip do: each subfolder is opened relative to its parent with
/// `O_NOFOLLOW`, listed from that descriptor, and each entry inspected with
/// `fstatat(AT_SYMLINK_NOFOLLOW)`. Folders are a bounded window of
/// descriptors (``Folder``): the walk holds the folder it lists, and a
/// plan's folder is opened again, and checked, when its file starts. It
/// creates nothing, even under `output`; it removes only the temporary
/// files of runs that were killed, and only beside the originals (without
/// `output`, where the run writes): see ``StaleTemporary``. An entry that
/// vanishes while listed is left out; any other entry that cannot be
/// inspected, opened or listed is a failure naming it. Only an unusable
/// `folder` or `output` throws, before anything is done.
///
/// Never follows symbolic links. Skips files already compressed by their
/// suffix, as gzip does (`GzipFormat.compressedSuffix(of:)`: `.gz`,
/// `.tgz`, `.taz`, `.Z`, ...), our own temporary files (a live writer's
/// with a note; a killed run's removed: ``Discovery/staleRemoved``), and,
/// when `output` lies inside `folder`, the output folder itself (with a
/// note: it existed before the run, since discovery comes first). Unless
/// `force`, a file with other hard links is skipped with a note, as gzip
/// does (`NAME: has N other links - ignored`): a link placed in the tree
/// to a file outside it would otherwise be read and written out beside it.
func discoverFiles(
    in folder: String, recursive: Bool, output: String?, force: Bool = false
) throws(FolderError) -> Discovery {
    let root: Folder
    do {
        root = try Folder.open(folder, shown: absolutePath(folder))
    } catch {
        switch error.code {
        case ENOENT: throw .missing(folder)
        case ENOTDIR: throw .notAFolder(folder)
        default: throw .unreadable(folder, errno: error.code)
        }
    }
    var scan = Scan(recursive: recursive, force: force)
    if let output {
        if let problem = OutputFolder.problem(with: output) { throw .unusableOutput(problem) }
        var info = stat()
        let shown = absolutePath(output)
        if withCName(FileName.bytes(output), { stat($0, &info) }) == 0 { scan.skipped = FileIdentity(info) }
        // `--output FOLDER FOLDER`: every folder scanned is its own mirror.
        var rootInfo = stat()
        scan.writesBeside = (try? root.withDescriptor { fstat($0, &rootInfo) }) == 0 && scan.skipped == FileIdentity(rootInfo)
        scan.discovery.outputRoot = OutputFolder.lazily(at: output, shown: shown).folder
    }
    scan.list(root, relative: "", output: scan.discovery.outputRoot ?? OutputFolder(existing: root), isTop: true)
    if let failure = scan.topFailure { throw .unreadable(folder, errno: failure) }
    let stale = scan.discovery.staleRemoved
    if !stale.isEmpty {
        scan.discovery.notes.insert(
            "removed \(Summary.count(stale.count, "temporary file")) left by a run that was killed: "
                + stale.joined(separator: ", "), at: 0)
    }
    return scan.discovery
}

/// One walk of the tree.
private struct Scan {
    let recursive: Bool
    /// Files with other hard links are compressed too.
    let force: Bool
    var discovery = Discovery()
    /// The output folder, when it exists: never scanned.
    var skipped: FileIdentity?
    /// The run's `.gz` files go into the folders scanned (no `--output`, or
    /// `--output` is FOLDER itself): only there are temporaries of ours.
    var writesBeside = true
    var topFailure: Int32?

    init(recursive: Bool, force: Bool) {
        self.recursive = recursive
        self.force = force
    }

    mutating func fail(_ shown: String, _ reason: String) {
        discovery.failures.append(FileOutcome(
            path: shown, destination: "", status: .failed, reason: reason, bytesIn: 0, bytesOut: 0, seconds: 0))
    }

    mutating func list(_ folder: Folder, relative: String, output: OutputFolder, isTop: Bool) {
        let names: [[UInt8]]
        switch listFolder(folder) {
        case .success(let list): names = list
        case .failure(let failure):
            if isTop { topFailure = failure.code; return }
            fail(relative, "cannot list the folder: \(failure.text)")
            return
        }
        // Outputs beside their originals: the listing says which exist. Kept
        // as the names that have a `.gz` beside them (none in a tree not
        // squeezed before), so a file costs no lookup key and no hashing.
        let gz = Array(".gz".utf8)
        let compressedNames = discovery.outputRoot == nil
            ? Set(names.lazy.filter { $0.count > gz.count && $0.suffix(gz.count).elementsEqual(gz) }
                .map { Array($0.dropLast(gz.count)) })
            : nil
        // Held while its entries are looked at, let go while a subfolder is
        // walked: only the folder being listed is held, whatever the depth.
        var held: Int32?
        defer { if held != nil { folder.release() } }
        let prefix = relative.isEmpty ? "" : relative + "/"
        for name in names.sorted(by: bytewisePrecedes) {
            let shown = prefix + FileName.display(name)
            if held == nil {
                do { held = try folder.hold() } catch {
                    fail(relative, "was moved or replaced during the run; the rest of it is left alone")
                    return
                }
            }
            let descriptor = held!
            var info = stat()
            guard withCName(name, { fstatat(descriptor, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0 else {
                let code = errno
                if code != ENOENT { fail(shown, "cannot inspect: \(String(cString: strerror(code)))") }
                continue  // ENOENT: vanished while listing
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                if let suffix = GzipFormat.compressedSuffix(of: name) {
                    discovery.notes.append("\(shown): already has \(FileName.display(suffix.utf8)) suffix - ignored")
                } else if writesBeside, case let verdict = StaleTemporary.judge(name, info: info, in: descriptor),
                          verdict != .ordinary {
                    settle(verdict, name, in: descriptor, shown: shown)
                } else if info.st_nlink > 1, !force {
                    let others = Int(info.st_nlink) - 1
                    discovery.notes.append(
                        "\(shown): has \(Summary.count(others, "other link")) - ignored (--force compresses it anyway)")
                } else {
                    discovery.plans.append(FilePlan(
                        folder: folder, name: name, outputFolder: output, identity: FileIdentity(info),
                        relativePath: shown, size: Int64(info.st_size),
                        destinationAbsent: compressedNames.map { $0.isEmpty || !$0.contains(name) } ?? false))
                }
            case S_IFDIR:
                if FileIdentity(info) == skipped {
                    // It existed before the run (discovery makes nothing):
                    // the user's folder, maybe with originals in it. Say so.
                    discovery.notes.append("\(shown): is the --output folder - ignored")
                    continue
                }
                guard recursive else {
                    discovery.notes.append("\(shown): is a folder (use --recursive) - ignored")
                    continue
                }
                folder.release()
                held = nil
                enter(name, in: folder, seen: FileIdentity(info), shown: shown, output: output)
            case S_IFLNK:
                discovery.notes.append("\(shown): is a symbolic link - ignored")
            default:
                discovery.notes.append("\(shown): is not a regular file (FIFO, socket or device) - ignored")
            }
        }
    }

    /// A temporary of ours (``StaleTemporary``) in a folder the run writes
    /// to: a live writer's is left alone with a note naming it; a killed
    /// run's is removed, and the notes say so.
    private mutating func settle(_ verdict: StaleTemporary, _ name: [UInt8], in folder: Int32, shown: String) {
        if case .live(let pid) = verdict {
            discovery.notes.append("\(shown): is a temporary file of file-squeezer process \(pid), still running - ignored")
        } else if withCName(name, { unlinkat(folder, $0, 0) }) == 0 {
            discovery.staleRemoved.append(shown)
        } else if errno != ENOENT {
            discovery.notes.append("\(shown): cannot remove this temporary file of a killed run: \(String(cString: strerror(errno)))")
        }
    }

    /// Opens subfolder `name` (refusing a symbolic link swapped in since it
    /// was inspected) and lists it.
    private mutating func enter(_ name: [UInt8], in folder: Folder, seen: FileIdentity, shown: String, output: OutputFolder) {
        let sub = Folder(name, in: folder, identity: seen)
        do {
            _ = try sub.hold()  // opened now, checked to be the folder inspected
            sub.release()
        } catch {
            switch error {
            case .vanished: return  // vanished while listing
            case .notAFolder: fail(shown, "was replaced during the run (not a folder any more); left alone")
            case .replaced: fail(shown, "was replaced during the run (another folder has its name); left alone")
            case .system(let code): fail(shown, "cannot open the folder: \(code.text)")
            }
            return
        }
        // Under --output its mirror is made only when a file is written
        // there: an empty folder costs nothing, not even a descriptor.
        let subOutput = discovery.outputRoot == nil ? OutputFolder(existing: sub) : OutputFolder(name: name, in: output)
        list(sub, relative: shown, output: subOutput, isTop: false)
    }
}

/// Byte order of two names (`memcmp`, then the shorter first), as
/// `lexicographicallyPrecedes` gives it, without its element-by-element
/// iteration: a folder of many files sorts its names in a fraction of the time.
private func bytewisePrecedes(_ first: [UInt8], _ second: [UInt8]) -> Bool {
    first.withUnsafeBytes { one in
        second.withUnsafeBytes { other in
            let common = min(one.count, other.count)
            let order = common == 0 ? 0 : memcmp(one.baseAddress!, other.baseAddress!, common)
            return order != 0 ? order < 0 : one.count < other.count
        }
    }
}
