#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One walker's part of the tree walk (``discoverFiles(in:recursive:output:force:walkers:lanes:)``):
/// lists a folder by descriptor, judges each entry, and either walks each
/// subfolder at once, depth first, or, when ``pieces`` is set, leaves it to
/// be walked beside the others (``SideBySideWalk``), keeping its place.
///
/// ```swift
/// var scan = FolderScan(recursive: true, force: false)
/// scan.list(root, relative: "", output: OutputFolder(existing: root), isTop: true)
/// print(scan.found.plans.count)
/// ```
struct FolderScan: Sendable {
    let recursive: Bool
    /// Files with other hard links are compressed too.
    let force: Bool
    /// What this scan found so far, in walk order (its ``Discovery/outputRoot`` unused).
    var found = Discovery()
    /// The `--output` folder; `nil` without `--output`.
    var outputRoot: OutputFolder?
    /// The output folder, when it exists: never scanned.
    var skipped: FileIdentity?
    /// The run's `.gz` files go into the folders scanned (no `--output`, or
    /// `--output` is FOLDER itself): only there are temporaries of ours.
    var writesBeside = true
    var topFailure: Int32?
    /// When set, subfolders are not walked: each is recorded here, after
    /// what was found before it, and ``found`` starts afresh.
    var pieces: [Piece]?

    /// What a listing that leaves its subfolders for later found, in order.
    enum Piece: Sendable {
        case found(Discovery)
        case subfolder(Subfolder)
    }

    /// A subfolder seen by a listing and not entered yet.
    struct Subfolder: Sendable {
        let name: [UInt8]
        let parent: Folder
        let seen: FileIdentity
        let shown: String
        /// Where its files' `.gz` go: the parent's output folder.
        let output: OutputFolder
    }

    init(recursive: Bool, force: Bool) {
        self.recursive = recursive
        self.force = force
    }

    /// The same settings, nothing found yet: for a walker of another part of the tree.
    var fresh: FolderScan {
        var scan = FolderScan(recursive: recursive, force: force)
        scan.outputRoot = outputRoot
        scan.skipped = skipped
        scan.writesBeside = writesBeside
        return scan
    }

    mutating func fail(_ shown: String, _ reason: String) {
        found.failures.append(FileOutcome(
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
        let compressedNames = outputRoot == nil
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
                    found.notes.append("\(shown): already has \(FileName.display(suffix.utf8)) suffix - ignored")
                } else if writesBeside, case let verdict = StaleTemporary.judge(name, info: info, in: descriptor),
                          verdict != .ordinary {
                    settle(verdict, name, in: descriptor, shown: shown)
                } else if info.st_nlink > 1, !force {
                    let others = Int(info.st_nlink) - 1
                    found.notes.append(
                        "\(shown): has \(Summary.count(others, "other link")) - ignored (--force compresses it anyway)")
                } else {
                    found.plans.append(FilePlan(
                        folder: folder, name: name, outputFolder: output, identity: FileIdentity(info),
                        relativePath: shown, size: Int64(info.st_size),
                        destinationAbsent: compressedNames.map { $0.isEmpty || !$0.contains(name) } ?? false))
                }
            case S_IFDIR:
                if FileIdentity(info) == skipped {
                    // It existed before the run (discovery makes nothing):
                    // the user's folder, maybe with originals in it. Say so.
                    found.notes.append("\(shown): is the --output folder - ignored")
                    continue
                }
                guard recursive else {
                    found.notes.append("\(shown): is a folder (use --recursive) - ignored")
                    continue
                }
                let subfolder = Subfolder(name: name, parent: folder, seen: FileIdentity(info), shown: shown, output: output)
                if pieces != nil {
                    pieces!.append(.found(found))
                    pieces!.append(.subfolder(subfolder))
                    found = Discovery()
                    continue
                }
                folder.release()
                held = nil
                enter(subfolder)
            case S_IFLNK:
                found.notes.append("\(shown): is a symbolic link - ignored")
            default:
                found.notes.append("\(shown): is not a regular file (FIFO, socket or device) - ignored")
            }
        }
    }

    /// A temporary of ours (``StaleTemporary``) in a folder the run writes
    /// to: a live writer's is left alone with a note naming it; a killed
    /// run's is removed, and the notes say so.
    private mutating func settle(_ verdict: StaleTemporary, _ name: [UInt8], in folder: Int32, shown: String) {
        if case .live(let pid) = verdict {
            found.notes.append("\(shown): is a temporary file of file-squeezer process \(pid), still running - ignored")
        } else if withCName(name, { unlinkat(folder, $0, 0) }) == 0 {
            found.staleRemoved.append(shown)
        } else if errno != ENOENT {
            found.notes.append("\(shown): cannot remove this temporary file of a killed run: \(String(cString: strerror(errno)))")
        }
    }

    /// Opens `subfolder` (refusing a symbolic link swapped in since it
    /// was inspected) and lists it.
    mutating func enter(_ subfolder: Subfolder) {
        guard let (sub, output) = open(subfolder) else { return }
        list(sub, relative: subfolder.shown, output: output, isTop: false)
    }

    /// `subfolder` opened now and checked to be the folder inspected, with
    /// its output folder; `nil` (a failure named, or nothing when it
    /// vanished) when it cannot be.
    private mutating func open(_ subfolder: Subfolder) -> (Folder, OutputFolder)? {
        let sub = Folder(subfolder.name, in: subfolder.parent, identity: subfolder.seen)
        do {
            _ = try sub.hold()  // opened now, checked to be the folder inspected
            sub.release()
        } catch {
            let shown = subfolder.shown
            switch error {
            case .vanished: break  // vanished while listing
            case .notAFolder: fail(shown, "was replaced during the run (not a folder any more); left alone")
            case .replaced: fail(shown, "was replaced during the run (another folder has its name); left alone")
            case .system(let code): fail(shown, "cannot open the folder: \(code.text)")
            }
            return nil
        }
        // Under --output its mirror is made only when a file is written
        // there: an empty folder costs nothing, not even a descriptor.
        return (sub, outputRoot == nil ? OutputFolder(existing: sub) : OutputFolder(name: subfolder.name, in: subfolder.output))
    }
}

extension Discovery {
    /// What `parts` found (plans, notes, failures, removed temporaries),
    /// one after the other. Each part is emptied as it is taken, into
    /// arrays made at their final size, so joining holds the plans about
    /// once, not twice.
    static func joining(_ parts: inout [Discovery]) -> Discovery {
        var whole = Discovery()
        whole.plans.reserveCapacity(parts.reduce(0) { $0 + $1.plans.count })
        whole.notes.reserveCapacity(parts.reduce(0) { $0 + $1.notes.count })
        for index in parts.indices {
            let part = parts[index]
            parts[index] = Discovery()
            whole.plans += part.plans
            whole.notes += part.notes
            whole.failures += part.failures
            whole.staleRemoved += part.staleRemoved
        }
        return whole
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
