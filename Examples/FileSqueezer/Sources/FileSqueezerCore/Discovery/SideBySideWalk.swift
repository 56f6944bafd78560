import ConcurrencyToolkit

/// The tree walk of ``discoverFiles(in:recursive:output:force:walkers:lanes:)``,
/// by several walkers at once: each folder near the top is listed in one
/// blocking job, and its subfolders are walked side by side, in parts,
/// `walkers` at a time; what they found is put back together in walk order,
/// so the result is the one a single walker, depth first, gives.
///
/// ```swift
/// let lanes = BlockingExecutor(width: 2, label: "FileSqueezer.walk")
/// let scan = await SideBySideWalk(settings: scan, lanes: lanes, walkers: 2)
///     .walk(.top(root, output: OutputFolder(existing: root)))
/// await lanes.shutdown()
/// ```
///
/// - **Why.** The walk comes before the first file starts, so one walker
///   leaves every other core idle for it. Two walkers on two cores save
///   about what overlapping the walk with compression would (the idle
///   core's share), and nothing after the walk changes.
/// - **Parts.** A folder's subfolders are split into at most
///   ``partsPerWalker`` × `walkers` parts of consecutive subfolders, one
///   blocking job each, walked depth first by one ``FolderScan``. A part of
///   a single subfolder less than ``splitDepth`` deep is split again in the
///   same way: a narrow top (one folder holding the rest) is still walked
///   side by side. So a tree costs a bounded number of hops (jobs and
///   tasks), whatever its count of folders.
/// - **Blocking.** Listing and `fstatat` block: every job runs on `lanes`,
///   never on the cooperative pool or the main actor, which stays free (a
///   long walk is no main-actor stall).
/// - **Descriptors.** Each walker holds the folder it lists, and briefly
///   the copy it reads and a parent it reopens, as a single walker does
///   (``Folder``): `walkers` times that at most.
/// - **Cancellation and shutdown.** A job that cannot run (the caller is
///   cancelled, `lanes` shut down) is run in the caller instead: nothing
///   found is ever left out.
struct SideBySideWalk: Sendable {
    /// The walk's settings (``FolderScan/fresh``: nothing found yet).
    let settings: FolderScan
    let lanes: BlockingExecutor
    let walkers: Int

    /// A part that is a single subfolder is listed and split in turn while
    /// its depth (the top's subfolders are 1) is below this; a deeper part
    /// is walked whole by one walker.
    static let splitDepth = 3
    /// Parts per walker at each split: enough that the last part to end
    /// runs alone only briefly, few enough that hops cost nothing next to a
    /// folder's listing.
    static let partsPerWalker = 8

    /// Where a walk starts: the top folder, or a subfolder to open first.
    enum Start: Sendable {
        case top(Folder, output: OutputFolder)
        case subfolder(FolderScan.Subfolder)
    }

    /// Walks the tree under `start`.
    /// - Returns: The scan: what was found in walk order, and ``FolderScan/topFailure``.
    func walk(_ start: Start, depth: Int = 0) async -> FolderScan {
        var listing = settings.fresh
        listing.pieces = []
        var result = await inJob { [listing] in
            var scan = listing
            switch start {
            case .top(let folder, let output):
                scan.list(folder, relative: "", output: output, isTop: true)
            case .subfolder(let subfolder):
                scan.enter(subfolder)
            }
            return scan
        }
        // Taken out of the scan, so each part found is held once (joining frees it).
        var pieces = (result.pieces ?? []) + [.found(result.found)]
        result.pieces = nil
        result.found = Discovery()

        let subfolders = pieces.compactMap { piece -> FolderScan.Subfolder? in
            if case .subfolder(let subfolder) = piece { subfolder } else { nil }
        }
        var walked = await Self.parts(of: subfolders, walkers: walkers).concurrentMap(maxConcurrency: walkers) { part in
            if part.count == 1, depth + 1 < Self.splitDepth {
                return [await walk(.subfolder(part[0]), depth: depth + 1).found]
            }
            return await inJob {
                part.map { subfolder in
                    var scan = settings.fresh
                    scan.enter(subfolder)
                    return scan.found
                }
            }
        }.flatMap { $0 }
        var inOrder: [Discovery] = []
        inOrder.reserveCapacity(pieces.count)
        var taken = 0
        for piece in pieces {
            switch piece {
            case .found(let found): inOrder.append(found)
            case .subfolder:
                inOrder.append(walked[taken])
                taken += 1
            }
        }
        pieces = []
        walked = []
        result.found = Discovery.joining(&inOrder)
        return result
    }

    /// `items` cut into at most ``partsPerWalker`` × `walkers` runs of
    /// consecutive ones, none empty, as even in count as can be.
    static func parts<Item>(of items: [Item], walkers: Int) -> [[Item]] {
        let count = min(items.count, partsPerWalker * max(1, walkers))
        return (0..<count).map { part in
            Array(items[part * items.count / count..<(part + 1) * items.count / count])
        }
    }

    /// `body` as a blocking job on `lanes`; in the caller when the job cannot run.
    private func inJob<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        do { return try await lanes.run { body() } } catch { return body() }
    }
}
