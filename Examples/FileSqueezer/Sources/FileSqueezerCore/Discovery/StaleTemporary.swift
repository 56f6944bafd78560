#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What discovery does with a file whose name has our temporaries' shape
/// (``TemporaryName``), in a folder the run writes to. Only what is
/// provably ours is ever removed; the name alone proves nothing.
///
/// ```swift
/// switch StaleTemporary.judge(name, info: info, in: folder) {
/// case .ordinary: break                      // compressed like any other file
/// case .live(let pid): print("pid \(pid) is still writing it")
/// case .stale: _ = unlinkat(folder, name, 0)
/// }
/// ```
enum StaleTemporary: Equatable {
    /// Not provably a temporary of ours: an input like any other.
    case ordinary
    /// Ours, and its writer (this pid) is alive: left alone, with a note.
    case live(pid_t)
    /// Ours, and no process has its writer's pid: a run killed by `kill -9`.
    case stale

    /// Ours means all of: the exact name shape with a pid in it; a regular
    /// file owned by our effective user; one link (a temporary is never
    /// linked: it gets its final name by a second link, then loses this one);
    /// and empty (a run killed before its first write) or starting with the
    /// gzip magic `1f 8b`. `info` is what discovery's `fstatat` saw; the
    /// file is opened with `O_NOFOLLOW` in the held descriptor `folder` and
    /// must still be that file.
    static func judge(_ name: [UInt8], info: stat, in folder: Int32) -> StaleTemporary {
        guard let writer = TemporaryName.writer(of: name),
              info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(), info.st_nlink == 1
        else { return .ordinary }
        let descriptor = withCName(name) {
            openat(folder, $0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        }
        guard descriptor >= 0 else { return .ordinary }
        defer { close(descriptor) }
        var now = stat()
        guard fstat(descriptor, &now) == 0, FileIdentity(now) == FileIdentity(info),
              now.st_uid == geteuid(), now.st_nlink == 1
        else { return .ordinary }
        var head: [UInt8] = [0, 0]
        let count = head.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 2) }
        guard count == 0 || (count == 2 && head == [0x1F, 0x8B]) else { return .ordinary }
        if writer == getpid() || kill(writer, 0) == 0 || errno != ESRCH { return .live(writer) }
        return .stale
    }
}
