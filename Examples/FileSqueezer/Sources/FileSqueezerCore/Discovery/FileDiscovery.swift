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
    /// How many folders the run's `.gz` files go to that are not open yet:
    /// each is opened on first use and then stays open (``JobLimit``).
    var outputFoldersToOpen = 0
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
/// `fstatat(AT_SYMLINK_NOFOLLOW)`; the plans keep their folder open. It
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
/// note: it existed before the run, since discovery comes first).
func discoverFiles(in folder: String, recursive: Bool, output: String?) throws(FolderError) -> Discovery {
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
    var scan = Scan(recursive: recursive)
    if let output {
        if let problem = OutputFolder.problem(with: output) { throw .unusableOutput(problem) }
        var info = stat()
        let shown = absolutePath(output)
        if withCName(FileName.bytes(output), { stat($0, &info) }) == 0 { scan.skipped = FileIdentity(info) }
        // `--output FOLDER FOLDER`: every folder scanned is its own mirror.
        var rootInfo = stat()
        scan.writesBeside = fstat(root.descriptor, &rootInfo) == 0 && scan.skipped == FileIdentity(rootInfo)
        let (root, missing) = OutputFolder.lazily(at: output, shown: shown)
        scan.discovery.outputRoot = root
        scan.discovery.outputFoldersToOpen += missing
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
    var discovery = Discovery()
    /// The output folder, when it exists: never scanned.
    var skipped: FileIdentity?
    /// The run's `.gz` files go into the folders scanned (no `--output`, or
    /// `--output` is FOLDER itself): only there are temporaries of ours.
    var writesBeside = true
    var topFailure: Int32?

    init(recursive: Bool) { self.recursive = recursive }

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
        // Outputs beside their originals: the listing says which exist.
        let listed = discovery.outputRoot == nil ? Set(names) : nil
        for name in names.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let shown = (relative.isEmpty ? "" : relative + "/") + FileName.display(name)
            var info = stat()
            guard withCName(name, { fstatat(folder.descriptor, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0 else {
                let code = errno
                if code != ENOENT { fail(shown, "cannot inspect: \(String(cString: strerror(code)))") }
                continue  // ENOENT: vanished while listing
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                if let suffix = GzipFormat.compressedSuffix(of: name) {
                    discovery.notes.append("\(shown): already has \(FileName.display(suffix.utf8)) suffix - ignored")
                } else if writesBeside, case let verdict = StaleTemporary.judge(name, info: info, in: folder),
                          verdict != .ordinary {
                    settle(verdict, name, in: folder, shown: shown)
                } else {
                    discovery.plans.append(FilePlan(
                        folder: folder, name: name, outputFolder: output, identity: FileIdentity(info),
                        relativePath: shown, size: Int64(info.st_size),
                        destinationAbsent: listed.map { !$0.contains(name + Array(".gz".utf8)) } ?? false))
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
    private mutating func settle(_ verdict: StaleTemporary, _ name: [UInt8], in folder: Folder, shown: String) {
        if case .live(let pid) = verdict {
            discovery.notes.append("\(shown): is a temporary file of file-squeezer process \(pid), still running - ignored")
        } else if withCName(name, { unlinkat(folder.descriptor, $0, 0) }) == 0 {
            discovery.staleRemoved.append(shown)
        } else if errno != ENOENT {
            discovery.notes.append("\(shown): cannot remove this temporary file of a killed run: \(String(cString: strerror(errno)))")
        }
    }

    /// Opens subfolder `name` (refusing a symbolic link swapped in since it
    /// was inspected) and lists it.
    private mutating func enter(_ name: [UInt8], in folder: Folder, seen: FileIdentity, shown: String, output: OutputFolder) {
        let sub: Folder
        do {
            sub = try Folder.open(name, in: folder)
        } catch {
            switch error.code {
            case ENOENT: return  // vanished while listing
            case ELOOP, ENOTDIR: fail(shown, "was replaced during the run (not a folder any more); left alone")
            default: fail(shown, "cannot open the folder: \(error.text)")
            }
            return
        }
        var info = stat()
        guard fstat(sub.descriptor, &info) == 0, FileIdentity(info) == seen else {
            fail(shown, "was replaced during the run (another folder has its name); left alone")
            return
        }
        var subOutput = OutputFolder(existing: sub)
        if discovery.outputRoot != nil {
            subOutput = OutputFolder(name: name, in: output)
            discovery.outputFoldersToOpen += 1
        }
        list(sub, relative: shown, output: subOutput, isTop: false)
    }
}

/// The names in `folder` but `.` and `..`, read from a duplicate of its descriptor.
private func listFolder(_ folder: Folder) -> Result<[[UInt8]], Errno> {
    let descriptor = dup(folder.descriptor)
    guard descriptor >= 0 else { return .failure(Errno(errno)) }
    guard let directory = fdopendir(descriptor) else {
        let code = errno
        close(descriptor)
        return .failure(Errno(code))
    }
    defer { closedir(directory) }
    rewinddir(directory)
    var names: [[UInt8]] = []
    while true {
        errno = 0
        guard let entry = readdir(directory) else {
            if errno != 0 { return .failure(Errno(errno)) }
            break
        }
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            Array(raw.prefix { $0 != 0 })
        }
        if name != [0x2E], name != [0x2E, 0x2E] { names.append(name) }
    }
    return .success(names)
}
