#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Compresses one file to gzip, streaming fixed-size chunks: memory is two
/// chunks plus zlib's state whatever the file size.
///
/// ```swift
/// let compressor = FileCompressor(level: 6, force: false, temporaryFiles: TemporaryFiles())
/// let size = try compressor.compress(plan, isCancelled: { Task.isCancelled }) { read in bar.update(read) }
/// ```
///
/// It is synchronous and blocking (file reads and writes, then CPU-bound
/// deflate): callers decide where it runs, which is what the strategies differ in.
public struct FileCompressor: Sendable {
    public static let defaultChunkSize = 256 * 1024

    public let level: Int
    public let force: Bool
    public let chunkSize: Int
    public let temporaryFiles: TemporaryFiles

    public init(level: Int, force: Bool, chunkSize: Int = defaultChunkSize, temporaryFiles: TemporaryFiles) {
        self.level = level
        self.force = force
        self.chunkSize = chunkSize
        self.temporaryFiles = temporaryFiles
    }

    /// Writes `plan.destination`, or nothing at all.
    ///
    /// The output goes to a temporary file beside the destination and is
    /// renamed into place only when complete, so a half-written `.gz` never
    /// carries the final name. The original is only ever opened for reading.
    ///
    /// - Parameters:
    ///   - isCancelled: Polled once per chunk; when it returns `true` the
    ///     temporary file is removed and `CancellationError` is thrown.
    ///   - progress: Called after each chunk with the bytes read so far.
    /// - Returns: The size of the `.gz`.
    /// - Throws: ``CompressionError`` naming the reason, or `CancellationError`.
    public func compress(
        _ plan: FilePlan, isCancelled: () -> Bool, progress: (Int64) -> Void
    ) throws -> Int64 {
        if !force, pathExists(plan.destination) {
            throw CompressionError.destinationExists(plan.destination)
        }
        let input = open(plan.source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            let code = errno
            throw code == ENOENT ? CompressionError.vanished : .system(action: "cannot open", errno: code)
        }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0 else { throw CompressionError.system(action: "cannot inspect", errno: errno) }
        guard Int64(info.st_size) == plan.size else {
            throw CompressionError.changedSize(expected: plan.size, actual: Int64(info.st_size))
        }

        let folder = parentFolder(of: plan.destination)
        try makeFolders(folder)
        let (output, temporaryPath) = try makeTemporaryFile(in: folder, for: plan.destination)
        temporaryFiles.insert(temporaryPath)
        var committed = false
        defer {
            if !committed { unlink(temporaryPath) }
            temporaryFiles.remove(temporaryPath)
        }
        var outputOpen = true
        defer { if outputOpen { close(output) } }

        let deflater = try GzipDeflater(level: level, outputChunkSize: chunkSize)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var written: Int64 = 0
        let sink = { (bytes: UnsafeRawBufferPointer) throws(CompressionError) in
            try writeAll(output, bytes)
            written += Int64(bytes.count)
        }

        var total: Int64 = 0
        while true {
            if isCancelled() { throw CancellationError() }
            let count = try readSome(input, into: buffer)
            if count == 0 { break }
            total += Int64(count)
            try deflater.compress(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), finish: false, into: sink)
            progress(total)
        }
        try deflater.compress(UnsafeRawBufferPointer(start: nil, count: 0), finish: true, into: sink)
        guard total == plan.size else { throw CompressionError.changedSize(expected: plan.size, actual: total) }

        // gzip keeps the original's permission bits; mkstemp made it 0600.
        fchmod(output, info.st_mode & 0o777)
        outputOpen = false
        guard close(output) == 0 else { throw CompressionError.system(action: "cannot write \(plan.destination)", errno: errno) }
        try moveIntoPlace(temporaryPath, plan.destination)
        committed = true
        return written
    }

    private func moveIntoPlace(_ temporaryPath: String, _ destination: String) throws(CompressionError) {
        if force {
            guard rename(temporaryPath, destination) == 0 else {
                throw .system(action: "cannot rename into \(destination)", errno: errno)
            }
            return
        }
        // link() fails if the destination appeared meanwhile, where rename()
        // would silently replace a .gz the user did not ask us to overwrite.
        guard link(temporaryPath, destination) == 0 else {
            let code = errno
            if code == EEXIST { throw .destinationExists(destination) }
            throw .system(action: "cannot create \(destination)", errno: code)
        }
        unlink(temporaryPath)
    }

    private func makeTemporaryFile(in folder: String, for destination: String) throws(CompressionError) -> (Int32, String) {
        let name = destination.split(separator: "/").last.map(String.init) ?? "output"
        var template = Array("\(folder)/.\(name).squeeze-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw .system(action: "cannot create a temporary file in \(folder)", errno: errno)
        }
        return (descriptor, String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    private func makeFolders(_ folder: String) throws(CompressionError) {
        if isDirectory(folder) { return }
        let parent = parentFolder(of: folder)
        if parent != folder { try makeFolders(parent) }
        if mkdir(folder, 0o755) != 0 && errno != EEXIST {
            throw .system(action: "cannot create folder \(folder)", errno: errno)
        }
        if !isDirectory(folder) {
            throw .system(action: "cannot create folder \(folder)", errno: ENOTDIR)
        }
    }
}

private func readSome(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(CompressionError) -> Int {
    var filled = 0
    // Fill the whole chunk (short reads happen on pipes and network file
    // systems), so deflate sees full-size input.
    while filled < buffer.count {
        let count = read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
        if count < 0 {
            if errno == EINTR { continue }
            throw .system(action: "cannot read", errno: errno)
        }
        if count == 0 { break }
        filled += count
    }
    return filled
}

private func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(CompressionError) {
    var done = 0
    while done < bytes.count {
        let count = write(descriptor, bytes.baseAddress! + done, bytes.count - done)
        if count < 0 {
            if errno == EINTR { continue }
            throw .system(action: "cannot write", errno: errno)
        }
        done += count
    }
}

func parentFolder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
}

func pathExists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
}

func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
}
