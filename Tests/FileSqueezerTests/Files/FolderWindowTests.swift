import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
@testable import FileSqueezerCore

/// Folders as a bounded window of descriptors (issue 29): a folder closed
/// to make room is reopened relative to its parent, and only if it is
/// still the folder discovery saw.
@Suite("Folder window")
struct FolderWindowTests {
    static func identity(_ path: String) -> FileIdentity {
        var info = stat()
        #expect(stat(path, &info) == 0)
        return FileIdentity(info)
    }

    /// Holds and lets go of more folders than the window keeps, so every
    /// folder let go of before them is closed. - Returns: Them: a folder
    /// nobody refers to any more is closed at once, not kept.
    @discardableResult
    static func churn(_ root: Folder, in scratch: Scratch) throws -> [Folder] {
        var kept: [Folder] = []
        for index in 0..<(2 * FolderWindow.keptOpen + 2) {
            let path = try scratch.folder("churn/c\(index)")
            let churned = Folder(Array("c\(index)".utf8), in: Folder(Array("churn".utf8), in: root,
                identity: identity(scratch.path + "/churn")), identity: identity(path))
            _ = try churned.hold()
            churned.release()
            kept.append(churned)
        }
        return kept
    }

    @Test("a closed folder is reopened by name and must still be the folder seen: moved is vanished, swapped is replaced")
    func reopenChecksIdentity() throws {
        let scratch = try Scratch()
        let path = try scratch.folder("a")
        try scratch.file("a/f.txt", Data("x\n".utf8))
        let root = try Folder.open(scratch.path)
        let folder = Folder(Array("a".utf8), in: root, identity: Self.identity(path))

        // Open, let go, closed by the churn, reopened: the same folder, so held again.
        let first = try folder.hold()
        #expect(first >= 0)
        folder.release()
        var churned = try Self.churn(root, in: scratch)
        let again = try folder.hold()
        var info = stat()
        #expect(fstatat(again, "f.txt", &info, 0) == 0)
        folder.release()

        // Closed, then moved away: its name is gone.
        churned += try Self.churn(root, in: scratch)
        #expect(rename(path, scratch.path + "/moved") == 0)
        #expect(throws: FolderUnavailable.vanished) { _ = try folder.hold() }

        // Another folder under its name: not the one seen.
        _ = try scratch.folder("a")
        #expect(throws: FolderUnavailable.replaced) { _ = try folder.hold() }

        // A symbolic link under its name: not followed.
        #expect(rmdir(path) == 0)
        #expect(symlink(scratch.path + "/moved", path) == 0)
        #expect(throws: FolderUnavailable.notAFolder) { _ = try folder.hold() }
        withExtendedLifetime(churned) {}
    }

    @Test("a held folder stays open: moved while held, it is still reached through its descriptor")
    func heldFolderFollowsAMove() throws {
        let scratch = try Scratch()
        let path = try scratch.folder("a")
        let root = try Folder.open(scratch.path)
        let folder = Folder(Array("a".utf8), in: root, identity: Self.identity(path))
        let held = try folder.hold()
        defer { folder.release() }
        #expect(rename(path, scratch.path + "/moved") == 0)
        let churned = try Self.churn(root, in: scratch)
        #expect(try folder.hold() == held)
        withExtendedLifetime(churned) {}
        folder.release()
        #expect(mkdirat(held, "made-after-the-move", 0o755) == 0)
        #expect(FileManager.default.fileExists(atPath: scratch.path + "/moved/made-after-the-move"))
    }
}
