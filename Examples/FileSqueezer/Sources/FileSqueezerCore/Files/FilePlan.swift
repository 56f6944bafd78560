#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One file to compress and where its `.gz` goes, decided before any work
/// starts: the original is the name ``name`` in ``folder`` (never a
/// path resolved again from the root), and must still be the file discovery
/// saw (``identity``) when it is opened.
///
/// ```swift
/// let discovery = try await discoverFiles(in: "logs", recursive: true, output: nil)
/// for plan in discovery.plans { print(plan.relativePath, "->", plan.destination) }
/// // tests: a plan for one path, its folder opened now
/// let plan = FilePlan(source: "/logs/a.log", relativePath: "a.log", destination: "/logs/a.log.gz", size: 1_234)
/// ```
struct FilePlan: Sendable {
    /// The original's folder: held (open) while its file is in flight,
    /// otherwise maybe closed and reopened when needed (``Folder``).
    let folder: Folder
    /// The original's name in ``folder`` (bytes, as the system has it).
    let name: [UInt8]
    /// Where the `.gz` goes (opened, or made under `--output`, when first needed).
    let outputFolder: OutputFolder
    /// What discovery saw; `nil` when not known (then not checked).
    let identity: FileIdentity?
    /// Discovery listed the destination folder and no `NAME.gz` was in it:
    /// no need to look again before compressing (`linkat` still refuses
    /// one that appears meanwhile).
    let destinationAbsent: Bool
    /// Path relative to the folder being squeezed (shown to the user), in
    /// ``FileName/display(_:)`` form.
    let relativePath: String
    /// Path of the `.gz`, for messages (``FileName/display(_:)`` form).
    ///
    /// Made when asked for, not stored: a stored path per plan makes a run's
    /// memory grow with its files.
    var destination: String { outputFolder.path + "/" + FileName.display(name) + ".gz" }
    /// Size seen at discovery; a different size later means the file changed.
    let size: Int64

    /// The name of the `.gz` in ``outputFolder``.
    var destinationName: [UInt8] { name + Array(".gz".utf8) }

    init(
        folder: Folder, name: [UInt8], outputFolder: OutputFolder, identity: FileIdentity?,
        relativePath: String, size: Int64, destinationAbsent: Bool = false
    ) {
        self.destinationAbsent = destinationAbsent
        self.folder = folder
        self.name = name
        self.outputFolder = outputFolder
        self.identity = identity
        self.relativePath = relativePath
        self.size = size
    }

    /// A plan for the file at `source` (its folder opened now; unchecked
    /// identity) whose `.gz` goes to `destination`, which must be
    /// `source`'s name plus `.gz` in any folder: for tests and tools.
    ///
    /// ```swift
    /// let plan = FilePlan(source: "/tmp/a.txt", relativePath: "a.txt", destination: "/tmp/out/a.txt.gz", size: 10)
    /// ```
    init(source: String, relativePath: String, destination: String, size: Int64) {
        let (folderPath, name) = splitPath(source)
        let folder = (try? Folder.open(folderPath)) ?? Folder(descriptor: -1, path: folderPath)
        let output = splitPath(destination).folder
        self.init(
            folder: folder, name: FileName.bytes(name),
            outputFolder: output == folderPath ? OutputFolder(existing: folder) : OutputFolder.lazily(at: output, shown: output).folder,
            identity: nil, relativePath: relativePath, size: size)
    }
}

/// Plans are equal when they name the same file (the same open folder and
/// name) with the same destination and size.
///
/// ```swift
/// let unique = Set(discovery.plans)   // one per file
/// ```
extension FilePlan: Hashable {
    static func == (left: FilePlan, right: FilePlan) -> Bool {
        left.folder === right.folder && left.name == right.name && left.destination == right.destination
            && left.size == right.size
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(folder))
        hasher.combine(name)
        hasher.combine(size)
    }
}

/// The folder and the last name of `path` ("." when it has no slash).
private func splitPath(_ path: String) -> (folder: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let folder = slash == path.startIndex ? "/" : String(path[..<slash])
    return (folder, String(path[path.index(after: slash)...]))
}
