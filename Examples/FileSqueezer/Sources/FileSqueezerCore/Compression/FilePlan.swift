/// One file to compress and where its `.gz` goes, decided before any work starts.
///
/// ```swift
/// let plan = FilePlan(source: "/logs/a.log", relativePath: "a.log", destination: "/logs/a.log.gz", size: 1_234)
/// ```
public struct FilePlan: Sendable, Hashable {
    /// Absolute path of the original.
    public let source: String
    /// Path relative to the folder being squeezed (shown to the user).
    public let relativePath: String
    /// Final path of the `.gz`.
    public let destination: String
    /// Size seen at discovery; a different size later means the file changed.
    public let size: Int64

    public init(source: String, relativePath: String, destination: String, size: Int64) {
        self.source = source
        self.relativePath = relativePath
        self.destination = destination
        self.size = size
    }
}
