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

/// One image's files and symbols, read on first use.
final class ImageSymbols: Sendable {
    /// What is read of an image, once.
    struct Loaded: Sendable {
        /// The image's file; nil when it cannot be read (the vDSO, a deleted
        /// file, not ELF).
        var file: ELFFile?
        /// The distribution's debug file for it (by build ID), looked for
        /// when the file lacks `.symtab` or `.debug_info`: its symbols, and
        /// where its DWARF is.
        var debugFile: ELFFile?
        var symbols: ELFSymbolTable?
    }

    let image: LoadedImage
    private let state = Lock<Loaded?>(nil)

    init(image: LoadedImage) {
        self.image = image
    }

    /// The image's files and symbol table: from `.symtab`, or from the debug
    /// file's when the image was stripped to `.dynsym` and one is installed.
    /// Read once; two threads that come first at once may both read, and the
    /// first to finish is kept.
    func loaded() -> Loaded {
        if let done = state.withLock({ $0 }) { return done }
        var loaded = Loaded(file: ELFFile(path: image.path))
        if let file = loaded.file {
            let hasSymbols = file.sections.contains { $0.type == 2 }  // SHT_SYMTAB
            if !hasSymbols || !file.sections.contains(where: { $0.name == ".debug_info" }) {
                loaded.debugFile = file.separateDebugFile()
            }
            let own = ELFSymbolTable(file: file)
            let separate = hasSymbols ? nil : loaded.debugFile.map { ELFSymbolTable(file: $0) }
            loaded.symbols = separate.flatMap { $0.symbols.count > own.symbols.count ? $0 : nil } ?? own
        }
        let read = loaded
        return state.withLock { current in
            if current == nil { current = read }
            return current!
        }
    }

    func symbolTable() -> ELFSymbolTable? {
        loaded().symbols
    }

    /// The image's DWARF, from the file that has it (the image's, or its
    /// debug file), made on first use; nil when neither has any. The files
    /// stay mapped in `loaded()`, which the sections point into.
    private let dwarf = Lock<DWARFImage??>(nil)

    private func dwarfImage() -> DWARFImage? {
        if let made = dwarf.withLock({ $0 }) { return made }
        let files = loaded()
        let made: DWARFImage? = [files.file, files.debugFile].compactMap { $0 }
            .first { $0.section(named: ".debug_info") != nil || $0.section(named: ".debug_line") != nil }
            .map { source in
                DWARFImage(
                    sections: DWARFSections(
                        info: source.section(named: ".debug_info"), abbrev: source.section(named: ".debug_abbrev"),
                        line: source.section(named: ".debug_line"), lineStr: source.section(named: ".debug_line_str"),
                        str: source.section(named: ".debug_str"), strOffsets: source.section(named: ".debug_str_offsets"),
                        addr: source.section(named: ".debug_addr"), ranges: source.section(named: ".debug_ranges"),
                        rnglists: source.section(named: ".debug_rnglists"), aranges: source.section(named: ".debug_aranges")))
            }
        return dwarf.withLock { current in
            if current == nil { current = .some(made) }
            return current!
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
