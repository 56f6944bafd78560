#if canImport(Runtime)
@_spi(Internal) import Runtime

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
extension BacktraceSymbolication {
    /// A captured stack of another thread (raw addresses, the interrupted
    /// instruction first) as report lines. For a thread asleep in system
    /// call `systemCall`, the first line names the C library function the
    /// code called and the call: `blocked in usleep (system call clock_nanosleep)`.
    ///
    /// Building a `Backtrace` from addresses is `@_spi(Internal)` in the
    /// toolchain's `Runtime` module (SE-0419 has no public initializer); it is
    /// the same type `Backtrace.capture` returns, symbolicated the same way.
    static func stallFrames(of addresses: [UInt], images: ImageMap, systemCall: Int? = nil) -> [String] {
        guard let first = addresses.first else { return [] }
        let frames = [RichFrame<UInt>.programCounter(first)] + addresses.dropFirst().map { .returnAddress($0) }
        #if arch(x86_64)
        let architecture = "x86_64"
        #elseif arch(arm64)
        let architecture = "arm64"
        #else
        let architecture = "unknown"
        #endif
        let backtrace = Backtrace(architecture: architecture, frames: frames, images: images)
        guard let symbolicated = backtrace.symbolicated(with: images, options: [.showInlineFrames, .showSourceLocations]) else { return [] }
        var lines = userFrames(of: symbolicated, skippingModule: "ConcurrencyToolkit", limit: 16)
        if let systemCall {
            let called = SystemCalls.calledFunction(in: addresses) ?? "a system call"
            lines.insert("blocked in \(called) (system call \(SystemCalls.name(systemCall)))", at: 0)
        }
        return lines
    }
}
#endif
