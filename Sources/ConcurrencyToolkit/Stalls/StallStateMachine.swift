/// The pure part of the watchdog, for one probe: from what the probe shows
/// (the probe on its way and the last one answered), which stall reports to
/// make. No clock, no threads: tested with plain numbers.
///
/// - A probe unanswered for the threshold starts a stall: report it as
///   ongoing once (the watchdog captures the blocking stacks first).
/// - When that probe is answered, the stall ended: report it again, ended,
///   with its whole duration and the stacks captured while it lasted.
/// - A probe answered late without having been seen late (the stall began
///   and ended between two looks) is reported once, ended, without stacks.
///
/// ```swift
/// var tracker = StallStateMachine()
/// let action = tracker.observe(pendingSince: 0, answered: nil, now: 300, threshold: 250)
/// // .reportOngoing(serial: 1, waited: 300)
/// ```
struct StallStateMachine {
    enum Action: Equatable {
        case none
        /// Capture the blocking threads and report the stall as ongoing.
        case reportOngoing(serial: UInt64, waited: UInt64)
        /// Report the stall as ended after `waited` nanoseconds.
        case reportEnded(serial: UInt64, waited: UInt64)
    }

    /// The stall now lasting: its serial and when its probe was sent.
    private(set) var ongoing: (serial: UInt64, sentAt: UInt64)?
    /// The send time of the last answered probe already looked at.
    private var lastAnswered: UInt64?
    private var nextSerial: UInt64 = 0

    mutating func observe(
        pendingSince: UInt64?, answered: (sentAt: UInt64, ranAt: UInt64)?, now: UInt64, threshold: UInt64
    ) -> Action {
        if let answered, answered.sentAt != lastAnswered {
            lastAnswered = answered.sentAt
            let waited = answered.ranAt &- answered.sentAt
            if let stall = ongoing, stall.sentAt == answered.sentAt {
                ongoing = nil
                return .reportEnded(serial: stall.serial, waited: waited)
            }
            if waited >= threshold {
                nextSerial += 1
                return .reportEnded(serial: nextSerial, waited: waited)
            }
        }
        if let pendingSince, ongoing == nil, now &- pendingSince >= threshold, now >= pendingSince {
            nextSerial += 1
            ongoing = (nextSerial, pendingSince)
            return .reportOngoing(serial: nextSerial, waited: now - pendingSince)
        }
        return .none
    }
}
