#if os(Linux)
@testable import ConcurrencyToolkit
import Testing
import TestSupport

/// The symbolicator on real addresses of this process: a function of the
/// test binary (a return address, from the C library's `backtrace`), a C
/// library function, and an address in no image.
@Suite struct SymbolicatorTests {
    @Test func namesAReturnAddressInTheTestBinaryAfterItsFunction() throws {
        let addresses = try #require(StackCaptureProbe.returnAddresses())
        let frames = Symbolicator.frames(for: addresses, firstIsProgramCounter: false)
        let first = try #require(frames.first)
        #expect(first.function == "static StackCaptureProbe.returnAddresses(count:)")
        #expect(first.mangledName?.hasPrefix("$s23ConcurrencyToolkitTests") == true)
        #expect(first.imagePath == LoadedImages.executablePath())
        #expect(first.imageOffset == first.address - LoadedImages.current()[0].loadBias)
        #expect(first.address == addresses[0])
        #expect(first.imageHasSymbols)
        // The caller: this test (a closure or the test function itself).
        #expect(frames.dropFirst().first?.function?.contains("namesAReturnAddressInTheTestBinaryAfterItsFunction") == true)
    }

    @Test func findsACLibraryFunctionInLibc() throws {
        let usleep = try #require(StackCaptureProbe.cLibraryFunction("usleep"))
        for _ in 0..<2 {  // the second lookup reads the cached table: same answer
            let frame = try #require(Symbolicator.frames(for: [usleep + 4], firstIsProgramCounter: true).first)
            #expect(frame.function == "usleep")
            #expect(frame.mangledName == "usleep")
            #expect(frame.imageName == "libc.so.6")
            #expect(frame.file == nil && frame.line == nil)
        }
    }

    /// The C library ships stripped to `.dynsym`; `libc6-dbg` installs its
    /// `.symtab` under `/usr/lib/debug/.build-id/`. The thread's first
    /// function, `start_thread`, is in the second only.
    @Test(.enabled(if: SymbolicatorTests.cLibraryDebugFileIsInstalled, "needs the C library's debug file (libc6-dbg)"))
    func namesTheCLibrarysInternalFunctionsFromItsDebugFile() throws {
        let addresses = try #require(StackCaptureProbe.returnAddresses(count: 128))
        let frames = Symbolicator.frames(for: addresses, firstIsProgramCounter: false)
        let cLibrary = frames.filter { $0.imageName == "libc.so.6" }
        #expect(cLibrary.contains { $0.function == "start_thread" }, "\(cLibrary.map(\.function))")
    }

    static var cLibraryDebugFileIsInstalled: Bool {
        guard let libc = LoadedImages.current().first(where: { $0.name == "libc.so.6" }), let id = ELFFile(path: libc.path)?.buildID else { return false }
        return FileManager.default.fileExists(atPath: "/usr/lib/debug/.build-id/\(id.prefix(2))/\(id.dropFirst(2)).debug")
    }

    @Test func readsTheBuildIDNote() throws {
        let libc = try #require(LoadedImages.current().first { $0.name == "libc.so.6" })
        let id = try #require(ELFFile(path: libc.path)?.buildID)
        #expect(id.count == 40 && id.allSatisfy(\.isHexDigit) && id == id.lowercased())
    }

    @Test func anAddressInNoImageHasNoNames() {
        let frames = Symbolicator.frames(for: [0x10, 0x18], firstIsProgramCounter: true)
        #expect(frames == [SymbolicatedFrame(address: 0x10), SymbolicatedFrame(address: 0x18)])
        #expect(Symbolicator.reportLines(for: [0x10], firstIsProgramCounter: true, limit: 8).isEmpty)
    }

    @Test func listsTheExecutableByItsPathAndItsCode() throws {
        let images = LoadedImages.current()
        let executable = try #require(images.first)
        #expect(executable.path == LoadedImages.executablePath())
        #expect(executable.path.hasPrefix("/"))
        let here = try #require(StackCaptureProbe.returnAddresses()?.first)
        #expect(LoadedImages.image(containing: here, in: images) == executable)
        #expect(images.contains { $0.name == "libc.so.6" })
    }

    @Test func keepsTheSymbolsOfTheSixteenImagesUsedLast() throws {
        let images = LoadedImages.current()
        try #require(images.count > Symbolicator.imageCacheLimit, "the test process loads more images than the cache keeps")
        let cache = ImageSymbolsCache()
        for image in images {
            _ = cache.symbols(forImageContaining: image.executableRanges[0].lowerBound)?.symbolTable()
        }
        #expect(cache.cachedImages == Array(images.suffix(Symbolicator.imageCacheLimit)))
        // Using the oldest one again makes it the newest.
        let oldest = try #require(cache.cachedImages.first)
        _ = cache.symbols(forImageContaining: oldest.executableRanges[0].lowerBound)
        #expect(cache.cachedImages.last == oldest)
        #expect(cache.cachedImages.count == Symbolicator.imageCacheLimit)
    }

    @Test func threadsSymbolicatingAtOnceAgree() async throws {
        let addresses = try #require(StackCaptureProbe.returnAddresses())
        let usleep = try #require(StackCaptureProbe.cLibraryFunction("usleep"))
        let cache = ImageSymbolsCache()  // cold: the threads race to build the tables
        let results = await withTaskGroup(of: [String?].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    (addresses + [usleep]).map { cache.symbols(forImageContaining: $0)?.frames(at: $0, capturedAddress: $0).first?.function }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 8)
        #expect(Set(results.map { $0.map { $0 ?? "-" }.joined(separator: "|") }).count == 1)
        #expect(results.first?.last == "usleep")
    }

    /// Garbage, a truncated ELF and an ELF whose section headers point
    /// anywhere: no names, no crash.
    @Test func aMalformedFileGivesNoNames() throws {
        let scratch = try Scratch()
        var generator = SplitMix64(seed: 38)
        var files: [String] = []
        files.append(try scratch.file("garbage", Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })))
        let real = try Data(contentsOf: URL(fileURLWithPath: LoadedImages.executablePath()))
        files.append(try scratch.file("truncated", real.prefix(64 * 1024)))
        files.append(try scratch.file("header-only", real.prefix(64)))
        for seed in 0..<20 {
            // A valid ELF64 header whose 10 section headers, at 64, are random.
            var bytes = [UInt8](real.prefix(64))
            bytes.replaceSubrange(40..<48, with: withUnsafeBytes(of: UInt64(64).littleEndian, Array.init))
            bytes.replaceSubrange(58..<64, with: [64, 0, 10, 0, UInt8(seed % 10), 0])
            bytes += (0..<(640 + 4096)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            files.append(try scratch.file("random-sections-\(seed)", Data(bytes)))
        }
        for path in files {
            let image = LoadedImage(path: path, loadBias: 0, executableRanges: [0..<UInt.max])
            let symbols = ImageSymbols(image: image)
            for address: UInt in [0, 0x40, 0x1000, 0x40_0000, UInt.max - 1] {
                let frame = try #require(symbols.frames(at: address, capturedAddress: address).first)
                #expect(frame.function == nil && frame.mangledName == nil, "\(path) at \(address)")
                #expect(frame.imageName == (path as NSString).lastPathComponent)
            }
            _ = ELFFile(path: path)?.section(named: ".debug_line")
        }
    }
}

enum StackCaptureProbe {
    private typealias Backtrace = @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>?, Int32) -> Int32

    /// The address of the C library's own `name`, not of a sanitizer's
    /// interceptor of the same name in the test binary.
    static func cLibraryFunction(_ name: String) -> UInt? {
        guard let library = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD) else { return nil }
        defer { dlclose(library) }
        return dlsym(library, name).map { UInt(bitPattern: $0) }
    }

    /// The return addresses of this call's stack, innermost first, from the
    /// C library's `backtrace` (found with `dlsym`: execinfo.h is not in the
    /// Glibc module): the first is inside this function.
    @inline(never)
    static func returnAddresses(count: Int = 8) -> [UInt]? {
        guard let function = cLibraryFunction("backtrace").flatMap(UnsafeRawPointer.init(bitPattern:)) else { return nil }
        let backtrace = unsafeBitCast(function, to: Backtrace.self)
        var buffer = [UnsafeMutableRawPointer?](repeating: nil, count: count)
        let count = backtrace(&buffer, Int32(buffer.count))
        return buffer.prefix(Int(count)).map { UInt(bitPattern: $0) }
    }
}

#endif
