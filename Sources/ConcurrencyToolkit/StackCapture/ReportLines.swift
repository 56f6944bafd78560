#if os(Linux)
extension Symbolicator {
    /// The lines a report shows for a captured stack: one per user frame,
    /// `function at Sources/App/main.swift:12` (or just `function` without
    /// debug info), innermost first, at most `limit`.
    ///
    /// Left out: the frames of `skippingModule` (its mangled names start
    /// `$s18ConcurrencyToolkit`) and the frames inlined into them, the Swift runtime's images (`libswift*`),
    /// the C library, the loader and Dispatch, Swift thunks (partial apply
    /// forwarders, reabstraction thunks, protocol witnesses, `@objc`
    /// bridges, allocating initializers), the program's `main` entry, code
    /// the compiler generated (line 0), and frames without a name. A frame
    /// in an image with no symbols at all (fully stripped) becomes
    /// `file-squeezer+0x1f3a4`: the image's name and the address in its
    /// file, which `addr2line -f -C -e file-squeezer 0x1f3a4` resolves
    /// against the unstripped build.
    static func reportLines(
        for addresses: [UInt], firstIsProgramCounter: Bool, skippingModule module: String = "ConcurrencyToolkit", limit: Int
    ) -> [String] {
        reportLines(of: frames(for: addresses, firstIsProgramCounter: firstIsProgramCounter), skippingModule: module, limit: limit)
    }

    /// The lines of `frames`, by the rules of `reportLines(for:…)`.
    static func reportLines(of frames: [SymbolicatedFrame], skippingModule module: String, limit: Int) -> [String] {
        let ownPrefix = "$s\(module.utf8.count)\(module)"
        // A frame inlined into one of the skipped module's functions (the
        // standard library's `UnownedJob.runSynchronously(on:)` in an
        // executor) is that module's code too. Inlined frames come just
        // before the function they were inlined into.
        var insideOwn = [Bool](repeating: false, count: frames.count)
        var containerIsOwn = false
        for index in frames.indices.reversed() {
            if !frames[index].isInlined { containerIsOwn = frames[index].mangledName?.hasPrefix(ownPrefix) == true }
            insideOwn[index] = containerIsOwn
        }
        var lines: [String] = []
        for (index, frame) in frames.enumerated() where lines.count < limit && !insideOwn[index] {
            guard let imageName = frame.imageName, !isRuntimeOrSystemImage(imageName) else { continue }
            guard let function = frame.function else {
                if !frame.imageHasSymbols, let offset = frame.imageOffset {
                    lines.append("\(imageName)+0x\(String(offset, radix: 16))")
                }
                continue
            }
            if let mangled = frame.mangledName {
                if mangled.hasPrefix(ownPrefix) || isEntryPoint(mangled) { continue }
            }
            if isThunk(function) { continue }
            if let file = frame.file, file.hasSuffix("<compiler-generated>") || frame.line == 0 { continue }
            var line = function
            if let file = frame.file, let number = frame.line {
                line += " at \(relativePath(file)):\(number)"
            }
            lines.append(line)
        }
        return lines
    }

    /// The Swift runtime's libraries (`libswiftCore.so`,
    /// `libswift_Concurrency.so`, …), the C library's, the loader, Dispatch
    /// and the vDSO: a call into the C library is named by a stall report's
    /// first line (`blocked in poll`), and Dispatch's frames only say which
    /// queue drained the job.
    static func isRuntimeOrSystemImage(_ imageName: String) -> Bool {
        imageName.hasPrefix("libswift") || imageName.hasPrefix("libc.") || imageName.hasPrefix("libc-")
            || imageName.hasPrefix("libpthread") || imageName.hasPrefix("ld-linux") || imageName.hasPrefix("ld-musl")
            || imageName.hasPrefix("libdispatch") || imageName.hasPrefix("linux-vdso") || imageName.hasPrefix("linux-gate")
    }

    /// Frames a reader never wrote: the compiler's forwarding and bridging
    /// code between two functions of theirs (what the `Runtime` module
    /// calls thunks). A merged function is a real body and stays.
    static func isThunk(_ function: String) -> Bool {
        function.hasPrefix("partial apply for ") || function.hasPrefix("thunk for ") || function.hasPrefix("protocol witness for ")
            || function.hasPrefix("@objc ") || function.hasPrefix("@nonobjc ")
            || function.contains(".__allocating_init(")
    }

    /// The program's entry: `main`'s wrappers around the top-level code or
    /// `@main` type, which every stack of the main thread ends in.
    static func isEntryPoint(_ mangled: String) -> Bool {
        mangled.hasSuffix("5$mainyyFZ") || mangled.hasSuffix("5$mainyyYaFZTQ0_") || mangled.hasPrefix("async_Main")
    }

    /// `Sources/App/main.swift` from an absolute path, from its last
    /// `Sources`, `Tests` or `Examples` folder on.
    static func relativePath(_ path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard let start = parts.lastIndex(where: { ["Sources", "Tests", "Examples"].contains($0) }) else { return path }
        return parts[start...].joined(separator: "/")
    }
}
#endif
