#if canImport(Runtime)
@_spi(Internal) import Runtime

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
extension BacktraceSymbolication {
    /// A captured stack of another thread (raw addresses, the interrupted
    /// instruction first) as report lines, and whether that thread was
    /// running a Swift job (a `swift_job_run` frame: a pool thread or the
    /// main thread draining the main actor).
    ///
    /// Building a `Backtrace` from addresses is `@_spi(Internal)` in the
    /// toolchain's `Runtime` module (SE-0419 has no public initializer); it is
    /// the same type `Backtrace.capture` returns, symbolicated the same way.
    static func stallFrames(of addresses: [UInt], images: ImageMap) -> (lines: [String], runsSwiftJob: Bool) {
        guard let first = addresses.first else { return ([], false) }
        let frames = [RichFrame<UInt>.programCounter(first)] + addresses.dropFirst().map { .returnAddress($0) }
        #if arch(x86_64)
        let architecture = "x86_64"
        #elseif arch(arm64)
        let architecture = "arm64"
        #else
        let architecture = "unknown"
        #endif
        let backtrace = Backtrace(architecture: architecture, frames: frames, images: images)
        guard let symbolicated = backtrace.symbolicated(with: images) else { return ([], false) }
        let runsSwiftJob = symbolicated.frames.contains { $0.symbol?.rawName == "swift_job_run" }
        return (userFrames(of: symbolicated, skippingModule: "ConcurrencyToolkit", limit: 16), runsSwiftJob)
    }
}
#endif
