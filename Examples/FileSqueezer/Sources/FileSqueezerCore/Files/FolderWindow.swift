#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The open descriptors of the run's folders (``Folder``), a bounded
/// window: those held now, plus the ``keptOpen`` folders let go of last;
/// opening one more closes the one unused longest.
///
/// ```swift
/// if let descriptor = FolderWindow.shared.pin(key) { use(descriptor) }   // open: held again
/// FolderWindow.shared.unpin(key)                                         // may close the oldest
/// ```
///
/// In walk order a folder's files follow each other, so a folder is opened
/// once for them all; a folder with work in flight is never closed.
final class FolderWindow: Sendable {
    static let shared = FolderWindow()

    /// Folders kept open after their last holder let go. Small: it is set
    /// aside from the open-file limit (``JobLimit``), and in walk order a
    /// folder is seldom needed again once the walk left it.
    static let keptOpen = 8

    private struct Slot {
        var descriptor: Int32
        var holders: Int
        var lastUse: UInt64
    }

    private struct State {
        var slots: [ObjectIdentifier: Slot] = [:]
        var idle = 0
        var clock: UInt64 = 0
    }

    private let state = VisibleMutex(State())

    /// How many folder descriptors are open now.
    var openCount: Int { state.withLock { $0.slots.count } }

    /// Holds the folder `key` if it is open. - Returns: Its descriptor, or `nil` when closed.
    func pin(_ key: ObjectIdentifier) -> Int32? {
        state.withLock { state in
            guard var slot = state.slots[key] else { return nil }
            if slot.holders == 0 { state.idle -= 1 }
            slot.holders += 1
            state.slots[key] = slot
            return slot.descriptor
        }
    }

    /// Adds the folder `key`, just opened as `descriptor`, held once. When
    /// another thread opened it meanwhile, that descriptor is held instead
    /// and this one closed. - Returns: The descriptor held.
    @discardableResult
    func insert(_ key: ObjectIdentifier, _ descriptor: Int32) -> Int32 {
        let kept: Int32? = state.withLock { state in
            if var slot = state.slots[key] {
                if slot.holders == 0 { state.idle -= 1 }
                slot.holders += 1
                state.slots[key] = slot
                return slot.descriptor
            }
            state.slots[key] = Slot(descriptor: descriptor, holders: 1, lastUse: 0)
            return nil
        }
        guard let kept else { return descriptor }
        close(descriptor)
        return kept
    }

    /// Lets go of one hold; closes the folder unused longest if more than
    /// ``keptOpen`` are open and unheld.
    func unpin(_ key: ObjectIdentifier) {
        let victim: Int32? = state.withLock { state in
            guard var slot = state.slots[key] else { return nil }
            slot.holders -= 1
            state.clock += 1
            slot.lastUse = state.clock
            state.slots[key] = slot
            guard slot.holders == 0 else { return nil }
            state.idle += 1
            guard state.idle > Self.keptOpen else { return nil }
            var oldest: (key: ObjectIdentifier, use: UInt64)?
            for (other, entry) in state.slots where entry.holders == 0 && entry.lastUse < (oldest?.use ?? .max) {
                oldest = (other, entry.lastUse)
            }
            guard let oldest else { return nil }
            state.idle -= 1
            return state.slots.removeValue(forKey: oldest.key)?.descriptor
        }
        if let victim { close(victim) }
    }

    /// The folder `key` is gone: its descriptor, if open, is closed.
    func forget(_ key: ObjectIdentifier) {
        let descriptor: Int32? = state.withLock { state in
            guard let slot = state.slots.removeValue(forKey: key) else { return nil }
            if slot.holders == 0 { state.idle -= 1 }
            return slot.descriptor
        }
        if let descriptor { close(descriptor) }
    }
}
