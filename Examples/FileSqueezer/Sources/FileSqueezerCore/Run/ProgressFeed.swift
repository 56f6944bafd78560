import Synchronization

/// Carries the newest read position of each file from the workers to the
/// main actor: workers overwrite, the display drains all files in one hop.
///
/// Any thread may call `report`; it takes a short lock and never waits for
/// the main actor.
final class ProgressFeed: Sendable {
    private let latest = Mutex<[Int: Int64]>([:])

    func report(file: Int, bytesRead: Int64) {
        latest.withLock { $0[file] = bytesRead }
    }

    /// Forgets a finished file, so a late drain cannot show it in flight again.
    func remove(file: Int) {
        latest.withLock { _ = $0.removeValue(forKey: file) }
    }

    func drain() -> [Int: Int64] {
        latest.withLock { latest in
            defer { latest.removeAll(keepingCapacity: true) }
            return latest
        }
    }
}
