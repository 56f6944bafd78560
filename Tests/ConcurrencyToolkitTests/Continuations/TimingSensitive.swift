import Testing

/// Suites that measure time or flood the cooperative pool run one at a time:
/// a 100,000-task flood delays every other waiter's wake-up by seconds, which
/// is scheduling delay, not what the timing tests measure.
@Suite(.serialized) enum TimingSensitive {}
