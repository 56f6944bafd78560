#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a `.gz` keeps of its original, as gzip does: the permission bits,
/// the owner and group, and the access and modification times, read from
/// the original's `fstat` when it is opened (before any byte is read).
///
/// ```swift
/// let original = OriginalMetadata(info)          // info: the original's stat
/// original.apply(to: temporaryDescriptor)        // before the .gz is linked into place
/// ```
struct OriginalMetadata: Sendable, Equatable {
    /// The permission bits (`st_mode & 0o777`; set-id and sticky bits are dropped, as gzip does).
    let permissions: mode_t
    let owner: uid_t
    let group: gid_t
    let accessSeconds: Int64
    let accessNanoseconds: Int
    let modificationSeconds: Int64
    let modificationNanoseconds: Int

    init(_ info: stat) {
        permissions = info.st_mode & 0o777
        owner = info.st_uid
        group = info.st_gid
        #if canImport(Glibc)
        accessSeconds = Int64(info.st_atim.tv_sec)
        accessNanoseconds = Int(info.st_atim.tv_nsec)
        modificationSeconds = Int64(info.st_mtim.tv_sec)
        modificationNanoseconds = Int(info.st_mtim.tv_nsec)
        #else
        accessSeconds = Int64(info.st_atimespec.tv_sec)
        accessNanoseconds = Int(info.st_atimespec.tv_nsec)
        modificationSeconds = Int64(info.st_mtimespec.tv_sec)
        modificationNanoseconds = Int(info.st_mtimespec.tv_nsec)
        #endif
    }

    /// Gives the temporary `.gz` open at `descriptor` the original's owner
    /// and group, permission bits, and access and modification times (to the
    /// nanosecond where the file system keeps them), as gzip does. Called on
    /// the descriptor before the file gets its final name, so nothing can
    /// swap the path in between; the file is not written to after this, so
    /// the times stay.
    ///
    /// The owner and group change only where the system allows it: as root,
    /// or to a group the user belongs to when the owner is already the user;
    /// otherwise the `.gz` keeps the user's, as with gzip. A failure to set
    /// the mode or times (a file system without them) is ignored too, as
    /// gzip only warns about it: the `.gz` itself is complete.
    ///
    /// ```swift
    /// original.apply(to: output.descriptor)
    /// ```
    func apply(to descriptor: Int32) {
        // chown first: it may clear set-id bits; the times last, so nothing
        // after them touches the file's data or mtime.
        _ = fchown(descriptor, owner, group)
        _ = fchmod(descriptor, permissions)
        var times = [
            timespec(tv_sec: time_t(accessSeconds), tv_nsec: accessNanoseconds),
            timespec(tv_sec: time_t(modificationSeconds), tv_nsec: modificationNanoseconds),
        ]
        _ = futimens(descriptor, &times)
    }
}
