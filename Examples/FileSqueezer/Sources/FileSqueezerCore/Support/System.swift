#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few operating-system services the app needs beyond single libc
/// calls, without Foundation: linking Foundation (and its ICU data) costs
/// every run megabytes of memory before the first file (Documentation/
/// Performance.md, "Why the code is as it is").
///
/// ```swift
/// System.startThread { watchSignals() }                  // a plain thread, outside every pool
/// let jobs = System.processorCount                       // online processors
/// try System.writeAtomically("{}", toPath: "run.json")   // all or nothing
/// try System.writeOutput(trace, toPath: "/dev/stdout")   // a device or pipe: written through
/// ```
enum System {
    /// The number of online processors.
    static var processorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// The environment variable `name`, if set.
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The text for an `errno` value, as `strerror` gives it.
    static func describe(errno code: Int32) -> String { String(cString: strerror(code)) }

    /// Starts a detached thread that runs `body` once. Used where a thread
    /// must run whatever the cooperative pool and Dispatch are doing (the
    /// signal watcher, the grace-period timer).
    static func startThread(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let result = pthread_create(&thread, &attributes, { context in
            let body = Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue()
            body.run()
            return nil
        }, box)
        pthread_attr_destroy(&attributes)
        if result != 0 {
            // No thread: run nothing twice, and say why.
            Unmanaged<ThreadBody>.fromOpaque(box).release()
            let message = Array("file-squeezer: cannot start a thread: \(describe(errno: result))\n".utf8)
            _ = message.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        }
    }

    /// Names the calling thread for debuggers and `top -H` (Linux keeps 15
    /// bytes); elsewhere a no-op.
    static func nameCurrentThread(_ name: String) {
        #if os(Linux)
        // pthread_setname_np is not in Glibc's Swift module; this is what it does.
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        #endif
    }

    /// Blocks the calling thread for `duration`.
    static func sleep(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var remaining = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        while true {
            var request = remaining
            guard nanosleep(&request, &remaining) != 0, errno == EINTR else { return }
        }
    }

    /// Writes `text` to `path` all or nothing: into a temporary file beside
    /// it, then renamed over it.
    /// - Throws: ``Failure`` naming the path and the system's reason.
    static func writeAtomically(_ text: String, toPath path: String) throws(Failure) {
        var template = Array("\(path).XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw Failure(path: path, errno: errno) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let code = Array(text.utf8).withUnsafeBytes { writeAll(descriptor, $0) }
        guard code == 0 else {
            close(descriptor)
            unlink(temporary)
            throw Failure(path: path, errno: code)
        }
        fchmod(descriptor, 0o644)
        guard close(descriptor) == 0, rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw Failure(path: path, errno: code)
        }
    }

    /// Writes `text` to `path` (`--trace`, `--timeline`) without ever
    /// putting something else in place of what is there:
    /// - nothing, or a regular file with no other link: all or nothing
    ///   (``writeAtomically(_:toPath:)``);
    /// - a character device (`/dev/null`, a terminal), a FIFO, a pipe or a
    ///   socket, even through symbolic links (`/dev/stdout`): written
    ///   through, as the shell's `>` would; no file is half-written there;
    /// - anything else is refused: a symbolic link or a hard link to a
    ///   regular file (renaming over it would break the link, writing
    ///   through it could leave the file half-written), a link to nothing
    ///   (never created through), a folder, a block device.
    /// - Throws: ``Failure`` naming the path and why.
    static func writeOutput(_ text: String, toPath path: String) throws(Failure) {
        var info = stat()
        if lstat(path, &info) != 0 {
            guard errno == ENOENT else { throw Failure(path: path, errno: errno) }
            return try writeAtomically(text, toPath: path)
        }
        let type = info.st_mode & S_IFMT
        if type == S_IFREG {
            guard info.st_nlink == 1 else {
                let others = Int(info.st_nlink) - 1
                throw Failure(path: path, errno: EEXIST, reason: "it has \(others) other hard link\(others == 1 ? "" : "s") (not replaced, not written through); give a new path")
            }
            return try writeAtomically(text, toPath: path)
        }
        // No O_CREAT: a symbolic link to nothing is not followed to make a file.
        let descriptor = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT, type == S_IFLNK {
                throw Failure(path: path, errno: ENOENT, reason: "it is a symbolic link to nothing; no file is made through it")
            }
            throw Failure(path: path, errno: errno)
        }
        defer { close(descriptor) }
        guard fstat(descriptor, &info) == 0 else { throw Failure(path: path, errno: errno) }
        guard [S_IFCHR, S_IFIFO, S_IFSOCK].contains(info.st_mode & S_IFMT) else {
            let what = info.st_mode & S_IFMT == S_IFREG ? "a symbolic link to a regular file" : "a block device"
            throw Failure(path: path, errno: EEXIST, reason: "it is \(what) (not replaced, not written through); give a new path")
        }
        let code = Array(text.utf8).withUnsafeBytes { writeAll(descriptor, $0) }
        guard code == 0 else { throw Failure(path: path, errno: code) }
    }

    /// Writes all of `bytes` to `descriptor`, going on after a short write
    /// or an interrupted one.
    /// - Returns: 0, or the `errno` of the write that failed.
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        var done = 0
        while done < bytes.count {
            let count = write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            done += count
        }
        return 0
    }

    /// Creates `path` and its missing parents, like `mkdir -p`.
    /// - Throws: ``Failure`` naming the folder that could not be made.
    static func makeFolders(_ path: String) throws(Failure) {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            try makeFolders(String(path[..<slash]))
        }
        if mkdir(path, 0o755) != 0, errno != EEXIST { throw Failure(path: path, errno: errno) }
    }

    /// A system call that failed on `path`, or a path refused.
    struct Failure: Error, CustomStringConvertible {
        let path: String
        let errno: Int32
        /// Why, when the system's text for `errno` would not say it.
        let explanation: String?

        init(path: String, errno: Int32, reason: String? = nil) {
            self.path = path
            self.errno = errno
            explanation = reason
        }

        /// What went wrong with `path`, for the message that names it.
        var reason: String { explanation ?? System.describe(errno: errno) }
        var description: String { "\(path): \(reason)" }
    }

    private final class ThreadBody: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
