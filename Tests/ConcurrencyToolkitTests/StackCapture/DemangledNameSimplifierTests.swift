#if os(Linux)
@testable import ConcurrencyToolkit
import Testing

/// Real symbols of File Squeezer, the toolkit and libswiftCore, each with
/// what `swift demangle --simplified` (the form the `Runtime` module
/// printed in reports) gives for it. The symbol goes through
/// `swift_demangle` (full form) and the simplifier, so both are checked.
@Suite struct DemangledNameSimplifierTests {
    static let table: [(symbol: String, simplified: String)] = [
        ("$s16FileSqueezerCore10ZlibStreamC8compress_6ending4intoySW_AC6EndingOAA10ByteBufferCtAA16CompressionErrorOYKF",
         "ZlibStream.compress(_:ending:into:)"),
        ("$s16FileSqueezerCore013compressWholeA0__4with8channels11isCancelledAA0A7OutcomeVSi_AA0A4PlanVAA0A10CompressorVAA17CompressionEvents_pSbyXEtF",
         "compressWholeFile(_:_:with:channels:isCancelled:)"),
        ("$s16FileSqueezerCore10FolderScanV4list_8relative6output5isTopyAA0D0C_SSAA06OutputD0CSbtF",
         "FolderScan.list(_:relative:output:isTop:)"),
        ("$s16FileSqueezerCore06SideByD4WalkV8settings5lanes7walkersAcA10FolderScanV_18ConcurrencyToolkit16BlockingExecutorCSitcfC",
         "SideBySideWalk.init(settings:lanes:walkers:)"),
        ("$s16FileSqueezerCore06SideByD4WalkV5lanes18ConcurrencyToolkit16BlockingExecutorCvg",
         "SideBySideWalk.lanes.getter"),
        ("$s16FileSqueezerCore09SegmentedA12StateMachineV12bytesWrittens5Int64Vvs",
         "SegmentedFileStateMachine.bytesWritten.setter"),
        ("$s16FileSqueezerCore06SideByD4WalkV4walk_5depthAA10FolderScanVAC5StartO_SitYaFSayAA9DiscoveryVGSayAG9SubfolderVGYaYbcfU1_ALyYbcfU_AkNXEfU_TA",
         "partial apply for closure #1 in closure #1 in closure #3 in SideBySideWalk.walk(_:depth:)"),
        ("$s16FileSqueezerCore06SideByD4WalkV4walk_5depthAA10FolderScanVAC5StartO_SitYaFSayAA9DiscoveryVGSayAG9SubfolderVGYaYbcfU1_ALyYbcfU_AkNXEfU_",
         "closure #1 in closure #1 in closure #3 in SideBySideWalk.walk(_:depth:)"),
        ("$s16FileSqueezerCore11RunChannelsC6finishyyYaFTY0_",
         "RunChannels.finish()"),
        ("$s18ConcurrencyToolkit4poll5every6within5untilSbs8DurationV_AGSbyXEtYaFTQ1_",
         "poll(every:within:until:)"),
        ("$s16FileSqueezerCore06SideByD4WalkV5parts2of7walkersSaySayxGGAG_SitlFZ",
         "static SideBySideWalk.parts<A>(of:walkers:)"),
        ("$sST18ConcurrencyToolkits8Sendable7ElementRpzrlE10runWorkers33_6B2C002C98663748E7EC3C4701DBA610LL03maxA08collects_Sayqd__GSi_Sbqd__ADYaYbqd_0_YKctYaqd_0_YKsABRd__s5ErrorRd_0_r0_lF",
         "Sequence<>.runWorkers<A, B>(maxConcurrency:collects:_:)"),
        ("$s16FileSqueezerCore06SourceA0CyAcA0A4PlanVAA16CompressionErrorOYKcfC",
         "SourceFile.__allocating_init(_:)"),
        ("$s16FileSqueezerCore13forwardSignal33_77B739663F24ECB6380DB74F06516F3FLLyys5Int32VFTo",
         "@objc forwardSignal(_:)"),
        ("$s16FileSqueezerCore06SourceA0Cfd",
         "SourceFile.deinit"),
        ("$s16FileSqueezerCore09SegmentedA0C13compressWhole11isCancelledAA0A7OutcomeVSbyXE_tFSSyXEfu1_",
         "implicit closure #3 in SegmentedFile.compressWhole(isCancelled:)"),
        ("$s16FileSqueezerCore09SegmentedA12StateMachineV6finishAC12FinishActionOyxq__GSgyF6$deferL_yyr0_lF",
         "$defer #1 <A, B>() in SegmentedFileStateMachine.finish()"),
        ("$s16FileSqueezerCore10GzipFormatO16compressedSuffix2ofSSSgSays5UInt8VG_tFZ7loweredL_yA2HF",
         "lowered #1 (_:) in static GzipFormat.compressedSuffix(of:)"),
        ("$s16FileSqueezerCore06SourceA0C11currentSize33_8231D9C491DD76EF83119AFEA60B0F92LLs5Int64VSgyF",
         "SourceFile.currentSize()"),
        ("$s54_swift_se0349_UnsafeMutableRawBufferPointer_storeBytesSi_Tt1g5Tm",
         "specialized _swift_se0349_UnsafeMutableRawBufferPointer_storeBytes"),
        ("$sSBsE16isTotallyOrdered14belowOrEqualToSbx_tFSd_Tgq5",
         "specialized BinaryFloatingPoint.isTotallyOrdered(belowOrEqualTo:)"),
        ("$sSMsEy11SubSequenceQzSny5IndexQzGcisTf4ddn_n",
         "specialized MutableCollection.subscript.setter"),
        ("$sSD4KeysVyxq__GSTsST12makeIterator0C0QzyFTW",
         "protocol witness for Sequence.makeIterator() in conformance [A : B].Keys"),
        ("$s16FileSqueezerCore0A7OutcomeV10CodingKeys33_9A84B2CD878BAE759BD50D050766A50DLLOSHAASH4hash4intoys6HasherVz_tFTW",
         "protocol witness for Hashable.hash(into:) in conformance FileOutcome.CodingKeys"),
        ("$sxq_xq_Iegnnrr_x3key_q_5valuetx_q_tIegnr_SHRzr0_lTR",
         "thunk for @escaping @callee_guaranteed (@in_guaranteed A, @in_guaranteed B) -> (@out A, @out B)"),
        ("$sSD5IndexVyxq__GSLsSL2leoiySbx_xtFZTW",
         "protocol witness for static Comparable.<= infix(_:_:) in conformance [A : B].Index"),
        ("$sSD10startIndexSD0B0Vyxq__GvgTm",
         "Dictionary.startIndex.getter"),
        ("$s16FileSqueezerCore0A4PlanV2eeoiySbAC_ACtFZ",
         "static FilePlan.== infix(_:_:)"),
        ("$s16FileSqueezerCore06SideByD4WalkV5StartOwxx",
         "destroy for SideBySideWalk.Start"),
        ("$s16FileSqueezerCore09SegmentedA12StateMachineV12bytesWrittens5Int64Vvpfi",
         "variable initialization expression of SegmentedFileStateMachine.bytesWritten"),
        ("$s16FileSqueezerCore06SideByD4WalkV4walk_5depthAA10FolderScanVAC5StartO_SitYaF",
         "SideBySideWalk.walk(_:depth:)"),
        ("$sSa6append10contentsOfyqd__n_t7ElementQyd__RszSTRd__lF",
         "Array.append<A>(contentsOf:)"),
        // Release-build and libswiftCore shapes: outlined value operations,
        // nested specializations whose closure parameter the demangler leaves
        // unbalanced, operators next to generic brackets.
        ("$sSS3key_yp5valuetWOc",
         "outlined init with copy of (key: String, value: Any)"),
        ("$sSS23_fromLargeUTF8Repairing21uninitializedCapacity16initializingWithSSSi_SiSrys5UInt8VGKXEtKFZ027$sSS10lowercasedSSyFSSSRys5I20VGXEfU_SiSryACGXEfU_SRyAEGSSTf1ncn_nTf4ndng_nTm",
         "specialized static String._fromLargeUTF8Repairing(uninitializedCapacity:initializingWith:)"),
        ("$sSasSQRzlE2eeoiySbSayxG_ABtFZ",
         "static Array<A>.== infix(_:_:)"),
        ("$sSiSzsSz2ggoiyxx_qd__tSzRd__lFZTW",
         "protocol witness for static BinaryInteger.>> infix<A>(_:_:) in conformance Int"),
        ("$sSayxGSQsSQRzlSQ2eeoiySbx_xtFZTW",
         "protocol witness for static Equatable.== infix(_:_:) in conformance <A> [A]"),
    ]

    @Test(arguments: table.indices)
    func simplifiesWhatSwiftDemangleGives(_ index: Int) {
        let (symbol, simplified) = Self.table[index]
        #expect(SwiftDemangling.demangledSwift(symbol) != nil, "swift_demangle is exported by libswiftCore")
        #expect(SwiftDemangling.function(forSymbol: symbol) == simplified)
    }

    @Test func fullFormIsWhatSwiftDemangleGivesWithFlagsZero() {
        #expect(
            SwiftDemangling.demangledSwift("$s16FileSqueezerCore10FolderScanV4list_8relative6output5isTopyAA0D0C_SSAA06OutputD0CSbtF")
                == "FileSqueezerCore.FolderScan.list(_: FileSqueezerCore.Folder, relative: Swift.String, output: FileSqueezerCore.OutputFolder, isTop: Swift.Bool) -> ()")
    }

    @Test func cAndCxxNamesPassThroughOrAreDemangled() {
        #expect(SwiftDemangling.function(forSymbol: "usleep") == "usleep")
        #expect(SwiftDemangling.function(forSymbol: "$sNotAValidMangling") == "$sNotAValidMangling")
        #expect(SwiftDemangling.function(forSymbol: "_ZNSt6vectorIiSaIiEE9push_backERKi") == "std::vector<int, std::allocator<int> >::push_back(int const&)")
    }

    @Test func unbalancedOrUnknownTextDoesNotCrash() {
        for text in ["", "(", ")", "<<<", "closure #", "closure #1 ", "a.b(", "protocol witness for ", "x #1 (", "generic specialization <"] {
            _ = DemangledNameSimplifier.simplified(text)
        }
    }
}
#endif
