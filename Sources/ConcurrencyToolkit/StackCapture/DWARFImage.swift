/// One frame at an address: a function, and where in its source the
/// address is, or where the next inner frame was inlined into it.
struct DWARFFrame: Equatable, Sendable {
    /// The linkage (mangled) name when the DWARF has one, else `DW_AT_name`.
    var name: String?
    var file: String?
    /// nil for line 0 (no source line) or no line at all.
    var line: Int?
    /// True for a frame the compiler inlined into the next one.
    var isInlined: Bool
}

/// File and line, with inlined frames, from the DWARF of one image.
///
/// Lazy: making it reads nothing; the first lookup lists the units and
/// their address ranges (kept for the image's life: about 100 bytes per
/// unit); each unit's line table and scopes are parsed when an address
/// needs them, and kept, least recently used first out, up to `cacheLimit`
/// estimated bytes (the unit in use always stays). Names are kept too, up
/// to `nameLimit` of them, emptied when full (costs: Performance.md,
/// "Symbolication (issue 38)").
///
/// Safe to call from several threads: the caches sit behind one `Lock`,
/// never held while parsing. Two threads that miss the same unit at once
/// both parse it; one copy is kept.
final class DWARFImage: @unchecked Sendable {
    // @unchecked: `sections` is read-only bytes that live as long as the
    // image; everything that changes is in `cache`, behind its lock.
    private let sections: DWARFSections
    private let cache: Lock<Cache>
    let cacheLimit: Int
    let nameLimit: Int

    /// A unit ready for lookups: what one parse of it made.
    final class ParsedUnit: Sendable {
        let unit: DWARFUnit
        let lineTable: DWARFLineTable?
        let inlinedFrames: DWARFInlinedFrames
        let estimatedBytes: Int

        init(_ unit: DWARFUnit, sections: DWARFSections) {
            self.unit = unit
            let directory = unit.compilationDirectory(sections)
            lineTable = unit.statementList.flatMap {
                DWARFLineTable(
                    sections, at: $0, compilationDirectory: directory,
                    unitAddressSize: unit.encoding.addressSize, strOffsets: unit.encoding)
            }
            inlinedFrames = DWARFInlinedFrames(unit: unit, sections: sections)
            estimatedBytes = (lineTable?.estimatedBytes ?? 0) + inlinedFrames.estimatedBytes
                + unit.abbreviations.estimatedBytes
        }
    }

    private struct Cache {
        var index: DWARFUnitIndex?
        var units: [Int: (parsed: ParsedUnit, lastUse: UInt64)] = [:]
        var unitBytes = 0
        var uses: UInt64 = 0
        var names: [UInt64: String] = [:]
    }

    init(sections: DWARFSections, cacheLimit: Int = 16 << 20, nameLimit: Int = 16_384) {
        self.sections = sections
        self.cacheLimit = cacheLimit
        self.nameLimit = nameLimit
        cache = Lock(Cache())
    }

    /// The frames at `address` (an address of the image's DWARF, that is a
    /// runtime address minus the image's load bias), innermost first: the
    /// innermost inlined function at the line table's file and line, then
    /// each function it was inlined into, at the call's file and line, down
    /// to the subprogram. One frame with no name when the line table knows
    /// the address but no subprogram does; nil when no unit covers the
    /// address, or a unit does but neither its line table nor its functions.
    func frames(at address: UInt64) -> [DWARFFrame]? {
        let index = unitIndex()
        guard let unitNumber = index.unit(containing: address) else { return nil }
        let parsed = parsedUnit(unitNumber, index: index)
        let location = parsed.lineTable?.location(at: address)
        let chain = parsed.inlinedFrames.chain(at: address)
        guard !chain.isEmpty else {
            return location.map { [DWARFFrame(name: nil, file: $0.file, line: $0.line, isInlined: false)] }
        }
        var frames: [DWARFFrame] = []
        var file = location?.file
        var line = location?.line
        for scope in chain.reversed() {
            let name = name(of: scope.entry, from: parsed, index: index)
            frames.append(DWARFFrame(name: name, file: file, line: line, isInlined: scope.isInlined))
            file = scope.callFile == .max ? nil : parsed.lineTable?.path(ofFile: UInt64(scope.callFile))
            line = scope.callLine == .max || scope.callLine == 0 ? nil : Int(scope.callLine)
        }
        return frames
    }

    /// What the caches hold now, roughly, in bytes (for the docs' figures).
    var cachedBytes: Int {
        cache.withLock { cache in
            (cache.index?.estimatedBytes ?? 0) + cache.unitBytes
                + cache.names.reduce(0) { $0 + 32 + $1.value.utf8.count }
        }
    }

    /// How many units' tables are cached now.
    var cachedUnitCount: Int { cache.withLock { $0.units.count } }

    private func unitIndex() -> DWARFUnitIndex {
        if let index = cache.withLock({ $0.index }) { return index }
        let made = DWARFUnitIndex(sections)
        return cache.withLock { cache in
            if let index = cache.index { return index }
            cache.index = made
            return made
        }
    }

    private func parsedUnit(_ number: Int, index: DWARFUnitIndex) -> ParsedUnit {
        let cached = cache.withLock { cache -> ParsedUnit? in
            guard let entry = cache.units[number] else { return nil }
            cache.uses += 1
            cache.units[number] = (entry.parsed, cache.uses)
            return entry.parsed
        }
        if let cached { return cached }
        let parsed = ParsedUnit(DWARFUnit(index.headers[number], sections: sections), sections: sections)
        let limit = cacheLimit
        return cache.withLock { cache in
            if let entry = cache.units[number] { return entry.parsed }
            cache.uses += 1
            cache.units[number] = (parsed, cache.uses)
            cache.unitBytes += parsed.estimatedBytes
            while cache.unitBytes > limit, cache.units.count > 1,
                let oldest = cache.units.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                cache.unitBytes -= oldest.value.parsed.estimatedBytes
                cache.units[oldest.key] = nil
            }
            return parsed
        }
    }

    /// The name of the DIE at `offset`: its linkage name, or its origin's
    /// (`DW_AT_abstract_origin`, `DW_AT_specification`, followed up to 8
    /// steps and across units), else the first `DW_AT_name` on the way.
    private func name(of offset: UInt64, from parsed: ParsedUnit, index: DWARFUnitIndex) -> String? {
        if let known = cache.withLock({ $0.names[offset] }) { return known.isEmpty ? nil : known }
        var plainName: String?
        var linkageName: String?
        var next: UInt64? = offset
        var steps = 0
        while let target = next, steps < 8, linkageName == nil {
            steps += 1
            next = nil
            let unit: DWARFUnit
            let header = parsed.unit.header
            if target >= header.offset, target < UInt64(header.end) {
                unit = parsed.unit
            } else if let other = index.unit(holdingEntryAt: target) {
                unit = DWARFUnit(index.headers[other], sections: sections)
            } else {
                break
            }
            guard var cursor = DWARFCursor(sections.info, at: target, end: UInt64(unit.header.end)),
                let entry = cursor.entry(unit.abbreviations, unit: unit.encoding)
            else { break }
            linkageName = entry.linkageName.flatMap { unit.encoding.string($0, in: sections) }
            if plainName == nil { plainName = entry.name.flatMap { unit.encoding.string($0, in: sections) } }
            next = entry.origin
        }
        let name = linkageName ?? plainName
        let limit = nameLimit
        cache.withLock { cache in
            if cache.names.count >= limit { cache.names.removeAll() }
            cache.names[offset] = name ?? ""
        }
        return name
    }
}
