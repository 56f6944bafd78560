#if canImport(Runtime)
@_spi(Internal) import Runtime

// TEMPORARY: replaced by the symbolicator of our own before this lands.
enum ReportLines {
    static func lines(for addresses: [UInt], firstIsProgramCounter: Bool, limit: Int) -> [String] {
        guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *), let first = addresses.first else { return [] }
        let frames = [firstIsProgramCounter ? RichFrame<UInt>.programCounter(first) : .returnAddress(first)] + addresses.dropFirst().map { .returnAddress($0) }
        let images = ImageMap.capture()
        let backtrace = Backtrace(architecture: "x86_64", frames: frames, images: images)
        guard let symbolicated = backtrace.symbolicated(with: images, options: [.showInlineFrames, .showSourceLocations]) else { return [] }
        return BacktraceSymbolication.userFrames(of: symbolicated, skippingModule: "ConcurrencyToolkit", limit: limit)
    }
}
#endif
