#if os(Linux)
/// One frame of a symbolicated stack.
struct SymbolicatedFrame: Equatable, Sendable {
    /// The captured address (a return address as captured, not minus one).
    var address: UInt
    /// The file name of the image the address is in (`libc.so.6`), nil when
    /// it is in no loaded image.
    var imageName: String?
    var imagePath: String?
    /// The address in the image file's numbering, for offline symbolication:
    /// `addr2line -f -C -e <imagePath> <imageOffset>`.
    var imageOffset: UInt?
    /// Whether the image has a symbol table with functions in it. A
    /// fully stripped image has none: its frames can only be shown as
    /// `image+0xOFFSET`.
    var imageHasSymbols: Bool = false
    /// The symbol as the file spells it (`$s16FileSqueezerCore10ZlibStreamV8compress…`).
    var mangledName: String?
    /// The name a report shows: `ZlibStream.compress(_:ending:into:)`.
    var function: String?
    var file: String?
    var line: Int?
    /// A frame the compiler inlined into the next one (same address).
    var isInlined: Bool = false
}

/// What the DWARF reader says about one address: the innermost frame
/// first, then the functions it was inlined into.
struct SourceFrame: Equatable, Sendable {
    /// The DWARF's linkage name, or its plain name for C code.
    var mangledName: String?
    var function: String?
    var file: String?
    var line: Int?
    var isInlined: Bool
}

/// Symbolication of our own, from the ELF files of the loaded images: no
/// `Runtime` module, nothing loaded into the process beyond what it has.
///
/// Lazy: nothing is read until the first lookup in an image; then its file
/// is mapped and its symbol table sorted, once. Memory is bounded: the
/// tables of the 16 images used last are kept (`imageCacheLimit`); one
/// image costs 16 bytes per function symbol (about 0.5 MB for
/// libswiftCore's 30,000), plus the pages of its mapped symbol and string
/// tables that lookups touched, which are clean page cache the kernel can
/// take back.
enum Symbolicator {
    static let imageCacheLimit = 16

    /// `addresses`, innermost first, as frames: one per address, or more
    /// when the debug info says code was inlined there. A return address is
    /// looked up one byte back, inside the call instruction, so a call that
    /// ends its function is still named after the caller; the program
    /// counter (`firstIsProgramCounter`) is looked up as it is.
    static func frames(for addresses: [UInt], firstIsProgramCounter: Bool) -> [SymbolicatedFrame] {
        var frames: [SymbolicatedFrame] = []
        frames.reserveCapacity(addresses.count)
        for (index, address) in addresses.enumerated() {
            let lookup = index == 0 && firstIsProgramCounter ? address : address &- 1
            guard let symbols = cache.symbols(forImageContaining: lookup) else {
                frames.append(SymbolicatedFrame(address: address))
                continue
            }
            frames += symbols.frames(at: lookup, capturedAddress: address)
        }
        return frames
    }

    static let cache = ImageSymbolsCache()
}

/// The images of the process and the symbols of those used last, under
/// the one lock. Files are read outside it: a lookup holds the lock to find
/// the image's entry, never while mapping or sorting.
final class ImageSymbolsCache: Sendable {
    private struct State {
        var images: [LoadedImage] = []
        var listed = false
        /// Least recently used first.
        var entries: [ImageSymbols] = []
    }

    private let state = Lock(State())

    func symbols(forImageContaining address: UInt) -> ImageSymbols? {
        if let found = state.withLock({ entry(for: address, in: &$0) }) { return found }
        // Listed outside the lock (the loader takes its own); a library
        // loaded since the last listing is found now.
        let images = LoadedImages.current()
        return state.withLock { state in
            state.images = images
            state.listed = true
            return entry(for: address, in: &state)
        }
    }

    /// The images whose symbols are kept, least recently used first.
    var cachedImages: [LoadedImage] {
        state.withLock { $0.entries.map(\.image) }
    }

    /// The entry of `address`'s image, made (empty) and moved to the end
    /// of the LRU order; nil when no listed image holds it.
    private func entry(for address: UInt, in state: inout State) -> ImageSymbols? {
        guard state.listed, let image = LoadedImages.image(containing: address, in: state.images) else { return nil }
        if let index = state.entries.firstIndex(where: { $0.image == image }) {
            let entry = state.entries.remove(at: index)
            state.entries.append(entry)
            return entry
        }
        let entry = ImageSymbols(image: image)
        state.entries.append(entry)
        if state.entries.count > Symbolicator.imageCacheLimit { state.entries.removeFirst() }
        return entry
    }
}

/// One image's symbols, read on first use.
final class ImageSymbols: Sendable {
    let image: LoadedImage
    private let table = Lock<ELFSymbolTable??>(nil)

    init(image: LoadedImage) {
        self.image = image
    }

    /// The image's symbol table, nil when its file cannot be read (the vDSO,
    /// a deleted file, not ELF); for a library stripped to `.dynsym`, its
    /// separate debug file's `.symtab` when one is installed. Built once; two threads that come first at
    /// once may both build it, and the first to finish is kept.
    func symbolTable() -> ELFSymbolTable? {
        if let built = table.withLock({ $0 }) { return built }
        let built = ELFFile(path: image.path).map { file in
            let own = ELFSymbolTable(file: file)
            // Stripped to .dynsym: the distribution's debug file may have the full table.
            guard !file.sections.contains(where: { $0.type == 2 }), let debug = file.separateDebugFile() else { return own }
            let separate = ELFSymbolTable(file: debug)
            return separate.symbols.count > own.symbols.count ? separate : own
        }
        return table.withLock { current in
            if current == nil { current = .some(built) }
            return current!
        }
    }

    /// The image's DWARF, read from its file (or its separate debug file)
    /// on first use; nil when it has none. Holds the file, whose mapping the
    /// sections point into.
    private struct DWARF {
        let file: ELFFile
        let image: DWARFImage
    }

    private let dwarf = Lock<DWARF??>(nil)

    private func dwarfImage() -> DWARFImage? {
        if let made = dwarf.withLock({ $0 }) { return made?.image }
        let made: DWARF? = ELFFile(path: image.path).flatMap { file in
            let withInfo = file.section(named: ".debug_info") != nil ? file : file.separateDebugFile()
            guard let source = withInfo, source.section(named: ".debug_info") != nil || source.section(named: ".debug_line") != nil
            else { return nil }
            let sections = DWARFSections(
                info: source.section(named: ".debug_info"), abbrev: source.section(named: ".debug_abbrev"),
                line: source.section(named: ".debug_line"), lineStr: source.section(named: ".debug_line_str"),
                str: source.section(named: ".debug_str"), strOffsets: source.section(named: ".debug_str_offsets"),
                addr: source.section(named: ".debug_addr"), ranges: source.section(named: ".debug_ranges"),
                rnglists: source.section(named: ".debug_rnglists"), aranges: source.section(named: ".debug_aranges"))
            return DWARF(file: source, image: DWARFImage(sections: sections))
        }
        return dwarf.withLock { current in
            if current == nil { current = .some(made) }
            return current!?.image
        }
    }

    /// The source frames at `fileAddress`, innermost first, from the
    /// image's DWARF (`.debug_line`, and `.debug_info`'s inlined
    /// subroutines); nil when the image has none or the address is in none
    /// of its units. A frame's function is its linkage name, demangled.
    func sourceFrames(at fileAddress: UInt) -> [SourceFrame]? {
        guard let frames = dwarfImage()?.frames(at: UInt64(fileAddress)) else { return nil }
        return frames.map { frame in
            SourceFrame(mangledName: frame.name, function: frame.name.map(SwiftDemangling.function(forSymbol:)), file: frame.file, line: frame.line, isInlined: frame.isInlined)
        }
    }

    /// The frames at `lookup` (an address inside this image).
    func frames(at lookup: UInt, capturedAddress: UInt) -> [SymbolicatedFrame] {
        let fileAddress = image.fileAddress(of: lookup)
        let table = symbolTable()
        let mangled = table?.function(containing: fileAddress)
        let frame = SymbolicatedFrame(
            address: capturedAddress, imageName: image.name, imagePath: image.path,
            imageOffset: image.fileAddress(of: capturedAddress), imageHasSymbols: !(table?.isEmpty ?? true),
            mangledName: mangled, function: mangled.map(SwiftDemangling.function(forSymbol:)))
        guard let sources = sourceFrames(at: fileAddress), !sources.isEmpty else { return [frame] }
        return sources.enumerated().map { index, source in
            // The outermost source frame is the function the symbol names;
            // inner ones are what was inlined into it.
            let isOutermost = index == sources.count - 1
            var inlined = frame
            inlined.mangledName = isOutermost ? frame.mangledName ?? source.mangledName : source.mangledName
            inlined.function = source.function ?? (isOutermost ? frame.function : nil)
            inlined.file = source.file
            inlined.line = source.line
            inlined.isInlined = source.isInlined
            return inlined
        }
    }
}
#endif
