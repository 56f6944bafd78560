import Testing
import TestSupport

/// Suites that measure time or flood the cooperative pool run one at a time:
/// a 100,000-task flood delays every other waiter's wake-up by seconds, which
/// is scheduling delay, not what the timing tests measure. The time limit turns
/// a broken timer (a waiter that never wakes) into a failure instead of a hang.
/// The `.timingSensitive` gate also keeps the other load suites out meanwhile.
@Suite(.serialized, .timeLimit(.minutes(3)), .timingSensitive) enum TimingSensitive {}
