#if os(Linux)
@testable import ConcurrencyToolkit
import Testing
import TestSupport

/// Which frames a report shows and how, on made-up frames; and a stripped
/// binary, made here with `cc` and `strip`, gives `image+0xOFFSET` lines.
@Suite struct ReportLinesTests {
    private func frame(
        _ function: String?, mangled: String? = nil, image: String? = "App", hasSymbols: Bool = true, offset: UInt = 0x1234,
        file: String? = nil, line: Int? = nil
    ) -> SymbolicatedFrame {
        SymbolicatedFrame(
            address: 0x5555_0000 + offset, imageName: image, imagePath: image.map { "/usr/local/bin/\($0)" },
            imageOffset: image == nil ? nil : offset, imageHasSymbols: hasSymbols, mangledName: mangled ?? function,
            function: function, file: file, line: line)
    }

    @Test func keepsTheUsersFramesWithShortPaths() {
        let frames = [
            frame("usleep", image: "libc.so.6"),
            frame("swift_task_switch", image: "libswift_Concurrency.so"),
            frame("SafeContinuation.resume(returning:)", mangled: "$s18ConcurrencyToolkit16SafeContinuationV6resume9returningyx_tF"),
            frame("partial apply for closure #1 in Worker.run()", mangled: "$s3App6WorkerV3runyyFyyXEfU_TA"),
            frame("thunk for @escaping @callee_guaranteed () -> ()", mangled: "$sIeg_IeyB_TR"),
            frame("protocol witness for Sequence.makeIterator() in conformance Items", mangled: "$s3App5ItemsVSTAAST12makeIteratorABFTW"),
            frame("Worker.compress(_:)", file: "/home/me/app/Sources/App/Worker.swift", line: 42),
            frame("closure #1 in Worker.run()", file: "/build/Tests/AppTests/Nested/Sources/Inner.swift", line: 7),
            frame("Worker.helper()", file: "<compiler-generated>", line: 0),
            frame(nil, image: "App"),  // a nameless frame in an image that has symbols
            frame("main", mangled: "$s3App5$mainyyFZ"),
            frame(nil, image: nil),
            frame("_dispatch_worker_thread2", image: "libdispatch.so"),
            frame("start_thread", image: "libc.so.6"),
        ]
        #expect(
            Symbolicator.reportLines(of: frames, skippingModule: "ConcurrencyToolkit", limit: 8) == [
                "Worker.compress(_:) at Sources/App/Worker.swift:42",
                "closure #1 in Worker.run() at Sources/Inner.swift:7",
            ])
        #expect(Symbolicator.reportLines(of: frames, skippingModule: "ConcurrencyToolkit", limit: 1).count == 1)
        // Another module skipped instead: the toolkit's frame is the user's now.
        #expect(Symbolicator.reportLines(of: frames, skippingModule: "Other", limit: 8).first == "SafeContinuation.resume(returning:)")
    }

    /// A standard-library function inlined into the toolkit's executor
    /// (same address, `isInlined`) is the toolkit's code, and so is the
    /// top-level code's async entry (`async_MainTY6_`, a resume partial).
    @Test func framesInlinedIntoTheToolkitAndTheAsyncEntryAreLeftOut() {
        var inlined = frame("UnownedJob.runSynchronously(on:)", mangled: "$sScJ18runSynchronously2onyScf_tF", offset: 0x40)
        inlined.isInlined = true
        let frames = [
            frame("Index.rebuild()", offset: 0x10, file: "/app/Sources/App/Index.swift", line: 8),
            inlined,
            frame("MonitoredExecutorCore.runJob(_:)", mangled: "$s18ConcurrencyToolkit21MonitoredExecutorCoreC6runJobyyF", offset: 0x40),
            frame("async_MainTY6_", mangled: "async_MainTY6_", offset: 0x80, file: "/app/Sources/App/main.swift", line: 21),
        ]
        #expect(
            Symbolicator.reportLines(of: frames, skippingModule: "ConcurrencyToolkit", limit: 8) == [
                "Index.rebuild() at Sources/App/Index.swift:8"
            ])
    }

    @Test func aStrippedImageGivesItsNameAndOffset() {
        let frames = [frame(nil, image: "file-squeezer", hasSymbols: false, offset: 0x1F3A4), frame("Worker.compress(_:)")]
        #expect(
            Symbolicator.reportLines(of: frames, skippingModule: "ConcurrencyToolkit", limit: 8) == [
                "file-squeezer+0x1f3a4", "Worker.compress(_:)",
            ])
    }

    /// A tiny C program, then the same stripped by `strip`: its `work`
    /// function is named before, and `tiny-stripped+0x…` after.
    @Test(.enabled(if: Tool.path("cc") != nil && Tool.path("strip") != nil && Tool.path("nm") != nil, "needs cc, strip and nm"))
    func aFullyStrippedBinaryGivesImagePlusOffsetLines() throws {
        let scratch = try Scratch()
        let source = try scratch.file("tiny.c", Data("int work(int x) { return x * 3 + 1; }\nint main(int argc, char **argv) { return work(argc); }\n".utf8))
        let tiny = scratch.url.appendingPathComponent("tiny").path
        let stripped = scratch.url.appendingPathComponent("tiny-stripped").path
        try Tool.run("cc", ["-O0", "-o", tiny, source])
        try FileManager.default.copyItem(atPath: tiny, toPath: stripped)
        try Tool.run("strip", ["--strip-all", stripped])
        let listing = try Tool.run("nm", [tiny])
        let workLine = try #require(listing.split(separator: "\n").first { $0.hasSuffix(" T work") })
        let work = try #require(UInt(workLine.prefix { $0 != " " }, radix: 16))

        func frames(_ path: String) -> [SymbolicatedFrame] {
            // As if loaded at its file addresses; a return address 4 bytes into `work`.
            let symbols = ImageSymbols(image: LoadedImage(path: path, loadBias: 0, executableRanges: [0..<UInt.max]))
            return symbols.frames(at: work + 3, capturedAddress: work + 4)
        }
        let named = frames(tiny)
        #expect(named.map(\.function) == ["work"])
        #expect(named.first?.imageHasSymbols == true)
        #expect(Symbolicator.reportLines(of: named, skippingModule: "ConcurrencyToolkit", limit: 8) == ["work"])

        let unnamed = frames(stripped)
        #expect(unnamed.map(\.function) == [nil])
        #expect(unnamed.first?.imageHasSymbols == false)
        #expect(
            Symbolicator.reportLines(of: unnamed, skippingModule: "ConcurrencyToolkit", limit: 8) == [
                "tiny-stripped+0x\(String(work + 4, radix: 16))"
            ])
    }
}

/// Return addresses against a library made here with `cc` and loaded
/// after the symbolicator listed the images.
@Suite struct ReturnAddressTests {
    /// `ends_with_call` ends in a call to a function that never returns, so
    /// its return address is the first byte after it: the next function's,
    /// with `-falign-functions=1`. Looked up one byte back, it is the caller.
    @Test(.enabled(if: Tool.path("cc") != nil && Tool.path("nm") != nil, "needs cc and nm"))
    func aReturnAddressIsNamedAfterTheCallerAndALaterLibraryIsFound() throws {
        let scratch = try Scratch()
        let source = try scratch.file(
            "ret.c",
            Data("""
                extern void stop(void) __attribute__((noreturn));
                void ends_with_call(void) { stop(); }
                void next_function(void) { }

                """.utf8))
        let library = scratch.url.appendingPathComponent("libret.so").path
        try Tool.run("cc", ["-O2", "-shared", "-fPIC", "-falign-functions=1", "-o", library, source])
        let sizes = try Tool.run("nm", ["-S", "--defined-only", library])
        let line = try #require(sizes.split(separator: "\n").first { $0.hasSuffix(" ends_with_call") })
        let size = try #require(UInt(line.split(separator: " ")[1], radix: 16))

        let cache = ImageSymbolsCache()
        let usleep = try #require(StackCaptureProbe.cLibraryFunction("usleep"))
        #expect(cache.symbols(forImageContaining: usleep) != nil)  // the images are listed now
        let handle = try #require(dlopen(library, RTLD_LAZY | RTLD_LOCAL))  // `stop` is never bound
        defer { dlclose(handle) }
        let start = UInt(bitPattern: dlsym(handle, "ends_with_call"))
        try #require(start != 0)
        let returnAddress = start + size
        #expect(cache.symbols(forImageContaining: returnAddress)?.image.name == "libret.so")

        let asReturnAddress = Symbolicator.frames(for: [0, returnAddress], firstIsProgramCounter: true)
        #expect(asReturnAddress.last?.function == "ends_with_call")
        #expect(asReturnAddress.last?.imageName == "libret.so")
        #expect(asReturnAddress.last?.address == returnAddress)
        let asProgramCounter = Symbolicator.frames(for: [returnAddress], firstIsProgramCounter: true)
        #expect(asProgramCounter.first?.function == "next_function")
    }
}

/// Command-line tools a test needs.
enum Tool {
    static func path(_ name: String) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `name` and returns its standard output; throws when it fails.
    @discardableResult
    static func run(_ name: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(path(name)))
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(name) \(arguments) exited with \(process.terminationStatus)")
        return String(decoding: data, as: UTF8.self)
    }
}
#endif
