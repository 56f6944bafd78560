#if os(Linux)
@testable import ConcurrencyToolkit
import Foundation
import Testing
import TestSupport

/// A C-convention closure: its address is the compiler's thunk into it.
private let knownClosure: @convention(c) (Int) -> Int = { $0 &* 3 &+ 1 }

/// The return addresses of this call, and the line of the call that takes
/// them: the first of them in this binary returns to that line.
@inline(never) private func returnAddressesHere() -> (addresses: [UInt], line: Int) {
    (Thread.callStackReturnAddresses.map(\.uintValue), #line)
}

/// The running test binary's own DWARF (SwiftPM's debug build: DWARF 4,
/// no `.debug_aranges`, sections not compressed), read through the
/// test-only ELF reader, against what the source says and what
/// `llvm-symbolizer` says.
@Suite struct DWARFImageTests {
    private struct Binary {
        let path: String
        let elf: DWARFTestELF
        let image: DWARFImage
        let bias: UInt
    }

    private static func binary() throws -> Binary {
        let path = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let elf = try #require(DWARFTestELF(path: path))
        try #require(!elf.hasCompressedDWARF, "the test binary's DWARF is compressed; the test ELF reader does not inflate it")
        let bias = try #require(DWARFTestELF.loadBias(of: unsafeBitCast(knownClosure, to: UInt.self)))
        return Binary(path: path, elf: elf, image: DWARFImage(sections: elf.dwarf), bias: bias)
    }

    /// The frames of the return addresses in this binary (each minus one:
    /// the call, not the instruction after it).
    private func frames(of addresses: [UInt], in binary: Binary) -> [[DWARFFrame]] {
        addresses.filter { DWARFTestELF.loadBias(of: $0) == binary.bias }
            .compactMap { binary.image.frames(at: UInt64($0 - 1 - binary.bias)) }
    }

    @Test func namesTheFunctionsOfAStackWithTheirFilesAndLines() throws {
        let binary = try Self.binary()
        let here = returnAddressesHere(); let callLine = #line
        let frames = frames(of: here.addresses, in: binary).compactMap(\.last)
        let mine = frames.filter { $0.file == #filePath }
        try #require(mine.count >= 2, "\(frames)")
        #expect(mine[0].line == here.line)
        #expect(mine[0].name?.hasPrefix("$s") == true, "a linkage name")
        #expect(mine[0].name?.contains("returnAddressesHere") == true)
        #expect(mine[1].line == callLine)
        #expect(mine[1].name?.contains("namesTheFunctionsOfAStack") == true)
        #expect(!mine[0].isInlined && !mine[1].isInlined)
        withExtendedLifetime(binary.elf) {}
    }

    @Test func aCompilerMadeThunkHasNoLine() throws {
        let binary = try Self.binary()
        let address = unsafeBitCast(knownClosure, to: UInt.self)
        let frames = try #require(binary.image.frames(at: UInt64(address - binary.bias)))
        #expect(frames.count == 1)
        #expect(frames.first?.name?.contains("knownClosure") == true)
        #expect(frames.first?.file == "/<compiler-generated>")
        #expect(frames.first?.line == nil)
        #expect(binary.image.frames(at: 0x10) == nil, "the ELF header: no unit")
        withExtendedLifetime(binary.elf) {}
    }

    /// This test's stack, and 300 addresses spread over the whole `.text`
    /// (code of a thousand units; under ThreadSanitizer, its C++ runtime
    /// too), each as `llvm-symbolizer --inlines` reads it. The symbolizer
    /// names the outermost frame from the symbol table when it can: where
    /// the DWARF has no linkage name for it (a `-gline-tables-only` library,
    /// or no function at all), that name is not compared.
    @Test(.enabled(if: DWARFTestTools.find("llvm-symbolizer") != nil, "llvm-symbolizer is not installed: the comparison with it is skipped"))
    func agreesWithLLVMSymbolizer() throws {
        let binary = try Self.binary()
        let symbolizer = try #require(DWARFTestTools.find("llvm-symbolizer"))
        let text = try #require(binary.elf.addresses(of: ".text"))
        let stack = returnAddressesHere().addresses.filter { DWARFTestELF.loadBias(of: $0) == binary.bias }
        var addresses = stack.map { UInt64($0 - 1 - binary.bias) }
        let step = (text.upperBound - text.lowerBound) / 300
        addresses += stride(from: text.lowerBound, to: text.upperBound, by: Int(step)).map { $0 }
        let expected = try #require(DWARFTestTools.symbolize(addresses, in: binary.path, with: symbolizer))
        try #require(expected.count == addresses.count)
        var named = 0
        for (address, reference) in zip(addresses, expected) {
            guard var ours = binary.image.frames(at: address) else {
                // No unit covers it: the symbol table may name it, but no line can be known.
                #expect(reference.allSatisfy { $0.line == nil }, "at 0x\(String(address, radix: 16)): \(reference)")
                continue
            }
            var reference = reference
            if let name = ours[ours.count - 1].name, name.hasPrefix("$s") || name.hasPrefix("_Z") {
                named += 1
            } else if !reference.isEmpty {
                ours[ours.count - 1].name = nil
                reference[reference.count - 1].name = nil
            }
            #expect(ours == reference, "at 0x\(String(address, radix: 16))")
        }
        #expect(named > addresses.count / 2, "most addresses in .text are in a function the DWARF names")
        withExtendedLifetime(binary.elf) {}
    }

    /// Nothing is read before the first lookup; a cache limit of one byte
    /// keeps one unit, and lookups from many threads at once, evicting each
    /// other's units, answer as one thread does.
    @Test func readsLazilyKeepsItsBoundAndAnswersTheSameFromManyThreads() throws {
        let binary = try Self.binary()
        let text = try #require(binary.elf.addresses(of: ".text"))
        // Few addresses: with no room, each lookup parses its unit again.
        let addresses = stride(from: text.lowerBound, to: text.upperBound, by: Int((text.upperBound - text.lowerBound) / 16)).map { $0 }
        let expected = addresses.map { binary.image.frames(at: $0) }
        let bounded = DWARFImage(sections: binary.elf.dwarf, cacheLimit: 1, nameLimit: 8)
        #expect(bounded.cachedBytes == 0)
        let answers = Locked([Int: [DWARFFrame]?]())
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for step in addresses.indices {
                let index = (step + worker * 4) % addresses.count  // each worker from elsewhere
                let frames = bounded.frames(at: addresses[index])
                answers.withLock { $0[index] = frames }
            }
        }
        let all = answers.withLock { $0 }
        #expect(all.count == addresses.count)
        for (index, frames) in expected.enumerated() { #expect(all[index] == frames, "at 0x\(String(addresses[index], radix: 16))") }
        #expect(bounded.cachedUnitCount == 1)
        #expect(binary.image.cachedUnitCount > 4)
        withExtendedLifetime(binary.elf) {}
    }
}
#endif
