import Foundation
import Testing

/// The one switch for the long runs: File Squeezer's long end-to-end runs,
/// the soaks and the stress loops run only when the environment has
/// `CONCURRENCY_TOOLKIT_FULL_TESTS=1`, which `.ci/run` sets for every test
/// step. The README's `swift test` leaves them out (and says so, with how
/// long each run takes); every library test still runs there.
///
/// ```swift
/// @Suite(.longRun) struct AtScaleTests { ... }
/// ```
package enum LongRuns {
    package static let environmentVariable = "CONCURRENCY_TOOLKIT_FULL_TESTS"
    package static var areOn: Bool { ProcessInfo.processInfo.environment[environmentVariable] == "1" }
}

extension Trait where Self == ConditionTrait {
    /// Runs the suite or test only in the full run (`CONCURRENCY_TOOLKIT_FULL_TESTS=1`, as CI sets).
    package static var longRun: Self {
        .enabled(if: LongRuns.areOn, "a long run: set CONCURRENCY_TOOLKIT_FULL_TESTS=1 to include it, as .ci/run does")
    }
}
