/// A place in the user's source: where a continuation was created or resumed,
/// or where code waited on the toolkit. Shared by every part of the library, so
/// no part depends on another just to name a line.
///
/// Sites are captured with default arguments (`#function`, `#fileID`, `#line`),
/// so a report names the line a developer has to look at:
///
/// ```swift
/// ContinuationMisuseHandler.bootstrap(.custom { misuse in
///     print("created at \(misuse.creationSite)")   // "Downloader/Fetch.swift:42 in fetch(_:)"
/// })
/// ```
public struct CallSite: Sendable, Hashable, CustomStringConvertible {
    /// The function that contains the site, as `#function` spells it.
    ///
    /// For example: `#expect(misuse.creationSite.function == "fetch(_:)")`
    public var function: String
    /// The file that contains the site, as `#fileID` spells it (`Module/File.swift`).
    ///
    /// For example: `let ours = misuses.filter { $0.creationSite.fileID.hasPrefix("Downloader/") }`
    public var fileID: String
    /// The line of the site.
    ///
    /// For example: `#expect(misuse.resumeSite?.line == 42)`
    public var line: Int

    /// Creates a site; usually you let the default arguments capture it.
    ///
    /// For example: `let here = CallSite()   // this very line`
    @inlinable
    public init(function: String = #function, fileID: String = #fileID, line: Int = #line) {
        self.function = function
        self.fileID = fileID
        self.line = line
    }

    /// `fileID:line in function`.
    ///
    /// ```swift
    /// await withSafeContinuation { continuation in
    ///     print(continuation.creationSite)   // "Downloader/Fetch.swift:42 in fetch(_:)"
    ///     continuation.resume()
    /// }
    /// ```
    public var description: String { "\(fileID):\(line) in \(function)" }
}
