/// One compile unit's functions and inlined calls with code: each
/// `DW_TAG_subprogram` and `DW_TAG_inlined_subroutine` that has addresses,
/// in the order of the DIE tree, and the chain of them around an address.
///
/// Made by one walk over the unit's DIEs; immutable after, so a lookup needs
/// no lock. It keeps no names: a scope keeps the offset of its DIE, named
/// on demand (``DWARFImage`` follows the origin to the linkage name).
final class DWARFInlinedFrames: Sendable {
    struct Scope {
        /// The scope's DIE, named through its origin (see `DWARFImage`).
        var entry: UInt64
        /// The enclosing scope's index, -1 for a subprogram.
        var parent: Int32
        /// The index just past this scope's descendants.
        var subtreeEnd: Int32
        var ranges: Range<Int32>
        /// `DW_AT_call_file` and `DW_AT_call_line` of an inlined call; `UInt32.max` when absent.
        var callFile: UInt32
        var callLine: UInt32
        var isInlined: Bool
    }

    struct Span {
        var low: UInt64
        var high: UInt64
        var scope: Int32
    }

    let scopes: [Scope]
    let ranges: [Range<UInt64>]
    /// Every range of every subprogram, sorted by start: the entry point of a lookup.
    let subprograms: [Span]

    init(unit: DWARFUnit, sections: DWARFSections) {
        var scopes: [Scope] = []
        var ranges: [Range<UInt64>] = []
        var subprograms: [Span] = []
        if let info = sections.info {
            var cursor = DWARFCursor(info, at: unit.header.firstEntry, end: unit.header.end)
            // For each open DIE with children: the scope its children belong
            // to, and whether that DIE is the scope (its subtree ends with it).
            var open: [(scope: Int32, isScope: Bool)] = []
            while !cursor.isAtEnd {
                let start = cursor.offset
                guard let entry = cursor.entry(unit.abbreviations, unit: unit.encoding) else {
                    guard cursor.isValid, cursor.offset > start else { break }
                    if let closed = open.popLast(), closed.isScope { scopes[Int(closed.scope)].subtreeEnd = Int32(scopes.count) }
                    continue
                }
                var isScope = false
                let enclosing = open.last?.scope ?? -1
                if entry.tag == DWARFTag.subprogram || entry.tag == DWARFTag.inlinedSubroutine {
                    let covered = unit.ranges(of: entry, sections: sections)
                    if !covered.isEmpty {
                        isScope = true
                        let isInlined = entry.tag == DWARFTag.inlinedSubroutine
                        let index = Int32(scopes.count)
                        scopes.append(Scope(
                            entry: entry.offset, parent: isInlined ? enclosing : -1,
                            subtreeEnd: index + 1, ranges: Int32(ranges.count)..<Int32(ranges.count + covered.count),
                            callFile: Self.small(entry.callFile), callLine: Self.small(entry.callLine),
                            isInlined: isInlined))
                        ranges += covered
                        if !isInlined {
                            subprograms += covered.map { Span(low: $0.lowerBound, high: $0.upperBound, scope: index) }
                        }
                    }
                }
                if entry.hasChildren {
                    open.append(isScope ? (Int32(scopes.count - 1), true) : (enclosing, false))
                }
            }
            // A unit cut short: the scopes still open end where it ends.
            for closed in open where closed.isScope { scopes[Int(closed.scope)].subtreeEnd = Int32(scopes.count) }
        }
        self.scopes = DWARFLineTable.exactly(scopes)
        self.ranges = DWARFLineTable.exactly(ranges)
        self.subprograms = subprograms.sorted { $0.low < $1.low }
    }

    /// The subprogram around `address`, then each inlined call inside it
    /// that is around it too, outermost first; empty when no subprogram is.
    func chain(at address: UInt64) -> [Scope] {
        guard let subprogram = subprogram(at: address) else { return [] }
        var chain = [scopes[Int(subprogram)]]
        var current = subprogram
        var index = Int(subprogram) + 1
        var end = Int(scopes[Int(subprogram)].subtreeEnd)
        while index < end {
            let scope = scopes[index]
            if scope.parent == current, contains(scope, address) {
                chain.append(scope)
                current = Int32(index)
                end = Int(scope.subtreeEnd)
                index += 1
            } else {
                index = max(index + 1, Int(scope.subtreeEnd))
            }
        }
        return chain
    }

    private func subprogram(at address: UInt64) -> Int32? {
        var index = DWARFLineTable.lastIndex(in: subprograms.indices) { subprograms[$0].low <= address }
        // Subprograms do not overlap, except a nested function inside its
        // outer one: look a few back when the nearest one ends too soon.
        var looked = 0
        while let candidate = index, looked < 8 {
            if address < subprograms[candidate].high { return subprograms[candidate].scope }
            index = candidate > 0 ? candidate - 1 : nil
            looked += 1
        }
        return nil
    }

    private func contains(_ scope: Scope, _ address: UInt64) -> Bool {
        ranges[Int(scope.ranges.lowerBound)..<Int(scope.ranges.upperBound)].contains { $0.contains(address) }
    }

    private static func small(_ value: DWARFValue?) -> UInt32 {
        guard let number = value?.number, number < UInt64(UInt32.max) else { return .max }
        return UInt32(number)
    }

    /// What the scopes hold, roughly, in bytes.
    var estimatedBytes: Int {
        scopes.capacity * MemoryLayout<Scope>.stride + ranges.capacity * MemoryLayout<Range<UInt64>>.stride
            + subprograms.capacity * MemoryLayout<Span>.stride
    }
}

extension DWARFEntry {
    /// The DIE this one completes: an inlined call's or a concrete
    /// function's abstract origin, or a definition's declaration.
    var origin: UInt64? {
        if case .reference(let offset)? = abstractOrigin { return offset }
        if case .reference(let offset)? = specification { return offset }
        return nil
    }
}
