#if os(Linux)
@testable import ConcurrencyToolkit
import Foundation
import Testing
import TestSupport

/// A C program with two functions inlined into a third, built by the
/// toolchain's clang with each DWARF layout a producer may choose, then
/// symbolicated at the return address of the call inside the innermost
/// inlined function: the chain of inlined frames, each at its call site.
@Suite(.enabled(if: DWARFTestTools.find("clang") != nil, "clang is not on PATH: the C programs cannot be built"))
struct DWARFInlinedFramesTests {
    static let source = [
        "#include <stdio.h>",
        "__attribute__((noinline)) int sink(int x) {",
        "    printf(\"%lx %lx\\n\", (unsigned long)__builtin_return_address(0), (unsigned long)&sink);",
        "    return x;",
        "}",
        "static inline __attribute__((always_inline)) int inner(int x) {",
        "    return sink(x) + 1;  /* inner's call */",
        "}",
        "static inline __attribute__((always_inline)) int middle(int x) {",
        "    return inner(x) * 2;  /* middle's call */",
        "}",
        "__attribute__((noinline)) int outer(int x) {",
        "    return middle(x) * 5;  /* outer's call */",
        "}",
        "int main(int argc, char **argv) { return outer(argc) == 0; }",
    ]

    static func line(_ marker: String) -> Int { source.firstIndex { $0.contains(marker) }! + 1 }

    /// The program built with `flags` (non-PIE: file and runtime addresses
    /// agree), the addresses it printed, and its DWARF.
    private func build(_ flags: String, in scratch: Scratch) throws -> (elf: DWARFTestELF, returnAddress: UInt64, sink: UInt64, file: String) {
        let clang = try #require(DWARFTestTools.find("clang"))
        let file = try scratch.file("inlined.c", Data(Self.source.joined(separator: "\n").utf8))
        let program = scratch.path + "/inlined"
        let arguments = flags.split(separator: " ").map(String.init) + ["-O2", "-no-pie", file, "-o", program]
        try #require(DWARFTestTools.run(clang, arguments) != nil, "clang \(arguments.joined(separator: " ")) failed")
        let output = try #require(DWARFTestTools.run(program, []))
        let numbers = output.split(whereSeparator: \.isWhitespace).compactMap { UInt64($0, radix: 16) }
        try #require(numbers.count == 2, "the program printed \(output)")
        return (try #require(DWARFTestELF(path: program)), numbers[0], numbers[1], file)
    }

    @Test(arguments: [
        "-gdwarf-4",  // .debug_loc, addresses inline
        "-gdwarf-5",  // strx, addrx, line_strp, the file list from 0
        "-gdwarf-5 -gdwarf64",  // 64-bit units and offsets
        "-gdwarf-4 -ffunction-sections",  // the unit's DW_AT_ranges in .debug_ranges
        "-gdwarf-5 -ffunction-sections",  // the unit's ranges by DW_FORM_rnglistx
        "-gdwarf-4 -ffunction-sections -gdwarf-aranges",  // units found through .debug_aranges
    ])
    func findsTheInlinedCallsAtEachCallSite(flags: String) throws {
        let scratch = try Scratch()
        let built = try build(flags, in: scratch)
        let image = DWARFImage(sections: built.elf.dwarf)
        let frames = image.frames(at: built.returnAddress - 1)
        #expect(frames == [
            DWARFFrame(name: "inner", file: built.file, line: Self.line("inner's call"), isInlined: true),
            DWARFFrame(name: "middle", file: built.file, line: Self.line("middle's call"), isInlined: true),
            DWARFFrame(name: "outer", file: built.file, line: Self.line("outer's call"), isInlined: false),
        ])
        #expect(image.frames(at: built.sink) == [
            DWARFFrame(name: "sink", file: built.file, line: Self.line("int sink("), isInlined: false)
        ])
        #expect(image.frames(at: 0x1000) == nil, "below the code: no unit")
        #expect(image.cachedBytes > 0)
        withExtendedLifetime(built.elf) {}
    }

    /// Every byte of `.debug_info`, `.debug_abbrev` and `.debug_line`
    /// overwritten with each of a few values: lookups end, and never read
    /// outside the sections.
    @Test func damagedSectionsNeverCrashOrHang() throws {
        let scratch = try Scratch()
        let built = try build("-gdwarf-5", in: scratch)
        let sections = built.elf.dwarf
        var lookups = 0
        for damaged in [\DWARFSections.info, \.abbrev, \.line] {
            let original = try #require(sections[keyPath: damaged].map { Array($0) })
            for index in original.indices {
                for value: UInt8 in [0x00, 0x05, 0x80, 0xff] where original[index] != value {
                    var bytes = original
                    bytes[index] = value
                    bytes.withUnsafeBytes { bytes in
                        var copy = sections
                        copy[keyPath: damaged] = bytes
                        let image = DWARFImage(sections: copy)
                        _ = image.frames(at: built.returnAddress - 1)
                        _ = image.frames(at: built.sink)
                        lookups += 2
                    }
                }
            }
        }
        #expect(lookups > 1000)
        withExtendedLifetime(built.elf) {}
    }
}
#endif
