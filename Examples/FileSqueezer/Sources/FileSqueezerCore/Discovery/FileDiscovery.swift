#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ConcurrencyToolkit

/// What a scan of the folder found: the files to compress, the entries
/// left alone with the reason (shown as notes, like gzip's "ignored" lines),
/// and the entries that could not be inspected (failures: always shown,
/// counted in `--json`'s `failed`, exit status 1).
///
/// ```swift
/// let discovery = try await discoverFiles(in: "logs", recursive: true, output: nil)
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
/// do { _ = try await discoverFiles(in: path, recursive: false, output: nil) }
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
    /// do { _ = try await discoverFiles(in: "logs", recursive: false, output: "notes.txt") }
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
/// let discovery = try await discoverFiles(in: "photos", recursive: true, output: "/backup/photos")
/// // photos/2024/a.jpg → /backup/photos/2024/a.jpg.gz
/// ```
///
/// Paths are in ``FileName/display(_:)`` form (`CommandLine.unsafeArgv`'s
/// bytes through ``FileName/display(_:)``). It walks by descriptor, as fts
/// and gzip do: each subfolder is opened relative to its parent with
/// `O_NOFOLLOW`, listed from that descriptor, and each entry inspected with
/// `fstatat(AT_SYMLINK_NOFOLLOW)`. Up to `walkers` walkers list folders
/// side by side, as blocking jobs off the cooperative pool and the caller's
/// actor (``SideBySideWalk``), on `lanes` (tests pass their own; by default
/// an executor of `walkers` lanes made for the walk); the result is the
/// same, in the same order, as one walker's depth first. Folders are a bounded window of
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
    in folder: String, recursive: Bool, output: String?, force: Bool = false,
    walkers: Int = min(System.processorCount, 4), lanes: BlockingExecutor? = nil
) async throws(FolderError) -> Discovery {
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
    var scan = FolderScan(recursive: recursive, force: force)
    var outputRoot: OutputFolder?
    if let output {
        if let problem = OutputFolder.problem(with: output) { throw .unusableOutput(problem) }
        var info = stat()
        let shown = absolutePath(output)
        if withCName(FileName.bytes(output), { stat($0, &info) }) == 0 { scan.skipped = FileIdentity(info) }
        // `--output FOLDER FOLDER`: every folder scanned is its own mirror.
        var rootInfo = stat()
        scan.writesBeside = (try? root.withDescriptor { fstat($0, &rootInfo) }) == 0 && scan.skipped == FileIdentity(rootInfo)
        outputRoot = OutputFolder.lazily(at: output, shown: shown).folder
        scan.outputRoot = outputRoot
    }
    let walkLanes = lanes ?? BlockingExecutor(width: max(1, walkers), label: "FileSqueezer.walk")
    let walked = await SideBySideWalk(settings: scan, lanes: walkLanes, walkers: max(1, walkers))
        .walk(.top(root, output: outputRoot ?? OutputFolder(existing: root)))
    if lanes == nil { await walkLanes.shutdown() }
    if let failure = walked.topFailure { throw .unreadable(folder, errno: failure) }
    var discovery = walked.found
    discovery.outputRoot = outputRoot
    let stale = discovery.staleRemoved
    if !stale.isEmpty {
        discovery.notes.insert(
            "removed \(Summary.count(stale.count, "temporary file")) left by a run that was killed: "
                + stale.joined(separator: ", "), at: 0)
    }
    return discovery
}
