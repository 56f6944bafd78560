/// The pure part of ``ReportRateLimitStorage``: which report lines to write now,
/// and when to write a summary of the ones held back. Events in, actions
/// out, no clock and no lock, so it is tested without either.
///
/// - The first report for a key is written in full.
/// - Later reports for that key are counted, not written.
/// - The counts go out as **one** summary line, at most once per interval:
///   the first report held back after a summary asks the caller to flush one
///   interval later; that flush writes the summary of everything held back
///   meanwhile, so summaries are always at least an interval apart.
struct ReportRateLimitStateMachine {
    /// What the caller must do after an event, in order.
    enum Action: Equatable {
        /// Write this line as it is.
        case write(String)
        /// Call ``flush(now:)`` `nanoseconds` from now (nothing is scheduled yet).
        case scheduleFlush(nanoseconds: UInt64)
    }

    let interval: UInt64
    let summaryPrefix: String
    /// Keys seen at least once; their first report was written in full.
    private(set) var seen: Set<String> = []
    /// Held-back reports since the last summary, per key, in first-held order.
    private(set) var held: [(key: String, count: Int)] = []
    /// When the first report now held back came.
    private var firstHeld: UInt64 = 0

    init(interval: UInt64, summaryPrefix: String) {
        self.interval = interval
        self.summaryPrefix = summaryPrefix
    }

    mutating func report(key: String, line: String, now: UInt64) -> [Action] {
        if seen.insert(key).inserted { return [.write(line)] }
        let first = held.isEmpty
        if let index = held.firstIndex(where: { $0.key == key }) {
            held[index].count += 1
        } else {
            held.append((key, 1))
        }
        guard first else { return [] }
        firstHeld = now
        return [.scheduleFlush(nanoseconds: interval)]
    }

    /// Writes what was held back, as one line; `nil` when nothing was.
    mutating func flush(now: UInt64) -> String? {
        guard !held.isEmpty else { return nil }
        let parts = held.map { "\(Self.grouped($0.count)) more from \($0.key)" }
        let elapsed = Double(now &- firstHeld) / 1e9
        held = []
        let seconds = elapsed < 10 ? String(Double((elapsed * 10).rounded()) / 10) : String(Int(elapsed.rounded()))
        return "\(summaryPrefix)…and \(parts.joined(separator: ", ")) in the last \(seconds) s\n"
    }

    /// `99999` → `99,999`.
    static func grouped(_ count: Int) -> String {
        var digits = String(count)
        var index = digits.endIndex
        while digits.distance(from: digits.startIndex, to: index) > 3 {
            index = digits.index(index, offsetBy: -3)
            digits.insert(",", at: index)
        }
        return digits
    }
}
