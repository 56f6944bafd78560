/// The pure part of the watchdog, for one probe: from what the probe shows
/// (the probe on its way and the last one answered), which stall reports to
/// make. No clock, no threads: tested with plain numbers.
///
/// - A probe unanswered for the threshold starts a stall: `.reportOngoing`
///   tells the watchdog to capture the blocking stacks (it reports nothing
///   yet).
/// - When that probe is answered, the stall ended: report it, ended, with
///   its whole length and the stacks captured while it lasted.
/// - A probe answered late without having been seen late (the stall began
///   and ended between two looks) is reported once, ended, without stacks.
/// - With `endsOnPromptAnswer` (the pool's probes), a stall ends only when
///   a later probe is answered *within* the threshold. Until then a late
///   answer, or a new late probe, continues the same stall: Dispatch can
///   start a thread in the middle of a block that runs one probe and
///   leaves, and that blip is not the end of the block. The ended report
///   then comes one probe later, and covers the whole block.
struct StallStateMachine {
    enum Action: Equatable {
        case none
        /// A stall began (or went on after a blip): capture the blocking threads.
        case reportOngoing(serial: UInt64, waited: UInt64)
        /// Report the stall as ended after `waited` nanoseconds.
        case reportEnded(serial: UInt64, waited: UInt64)
    }

    /// A stall: its serial, when it began (the send time of its first late
    /// probe), and the probe it waits for now.
    struct Stall: Equatable {
        var serial: UInt64
        var since: UInt64
        var probe: UInt64
    }

    /// Whether a stall ends only at a prompt answer (see the type's comment).
    let endsOnPromptAnswer: Bool
    /// The stall now lasting.
    private(set) var ongoing: Stall?
    /// A stall whose probe was answered, waiting for a prompt answer to end
    /// (only with `endsOnPromptAnswer`): its serial, start and last answer.
    private(set) var ending: (serial: UInt64, since: UInt64, lastAnswer: UInt64)?
    /// The send time of the last answered probe already looked at.
    private var lastAnswered: UInt64?
    private var nextSerial: UInt64 = 0
    /// The start and end of the stall last reported ended (its `waited` is
    /// their difference): what ``PoolStallEpisode`` merges by.
    private(set) var lastEnded: (since: UInt64, end: UInt64)?

    /// Whether a stall lasts, or waits for the prompt answer that ends it.
    var isLasting: Bool { ongoing != nil || ending != nil }

    init(endsOnPromptAnswer: Bool = false) {
        self.endsOnPromptAnswer = endsOnPromptAnswer
    }

    mutating func observe(
        pendingSince: UInt64?, answered: (sentAt: UInt64, ranAt: UInt64)?, now: UInt64, threshold: UInt64
    ) -> Action {
        if let answered, answered.sentAt != lastAnswered {
            lastAnswered = answered.sentAt
            let waited = answered.ranAt &- answered.sentAt
            if let stall = ongoing, stall.probe == answered.sentAt {
                ongoing = nil
                guard endsOnPromptAnswer else {
                    return ended(serial: stall.serial, since: stall.since, end: answered.ranAt)
                }
                ending = (stall.serial, stall.since, answered.ranAt)
            } else if waited >= threshold {
                if !endsOnPromptAnswer {
                    nextSerial += 1
                    return ended(serial: nextSerial, since: answered.sentAt, end: answered.ranAt)
                }
                if ending == nil {
                    nextSerial += 1
                    ending = (nextSerial, answered.sentAt, answered.ranAt)
                } else {
                    ending?.lastAnswer = answered.ranAt
                }
            } else if let stall = ending {
                ending = nil
                return ended(serial: stall.serial, since: stall.since, end: stall.lastAnswer)
            }
        }
        if let pendingSince, ongoing == nil, now >= pendingSince, now &- pendingSince >= threshold {
            if let stall = ending {
                // Late again before any prompt answer: the same stall goes on.
                ending = nil
                ongoing = Stall(serial: stall.serial, since: stall.since, probe: pendingSince)
                return .reportOngoing(serial: stall.serial, waited: now &- stall.since)
            }
            nextSerial += 1
            ongoing = Stall(serial: nextSerial, since: pendingSince, probe: pendingSince)
            return .reportOngoing(serial: nextSerial, waited: now - pendingSince)
        }
        return .none
    }

    /// When the watchdog stops: a stall waiting for its prompt answer ended
    /// at its last answer, so report it now instead of losing it.
    mutating func finish() -> Action {
        guard let stall = ending else { return .none }
        ending = nil
        return ended(serial: stall.serial, since: stall.since, end: stall.lastAnswer)
    }

    private mutating func ended(serial: UInt64, since: UInt64, end: UInt64) -> Action {
        lastEnded = (since, end)
        return .reportEnded(serial: serial, waited: end &- since)
    }
}
