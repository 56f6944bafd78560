import ConcurrencyToolkit
import XCTest

/// Runs `body` under `count` schedules and records one XCTest failure per
/// failing schedule, at `file`/`line`, naming its seed and replay line.
/// Returns the exploration.
///
/// ```swift
/// await XCTAssertNoScheduleFailure(300) {
///     let account = Account(balance: 100)
///     async let first: Void = account.withdraw(80)
///     async let second: Void = account.withdraw(80)
///     _ = await (first, second)
///     guard await account.balance >= 0 else { throw Overdraw() }
/// }
/// ```
///
/// It stops after `failureLimit` failures. `XCTAssert…` inside `body` fails
/// without a seed: throw instead. See <doc:ExploringSchedulesInTests>.
@discardableResult
public func XCTAssertNoScheduleFailure(
    _ count: Int = 100, seed: UInt64? = nil, strategy: ScheduleStrategy = .default, failureLimit: Int = 3,
    _ body: @escaping @Sendable () async throws -> Void,
    file: StaticString = #filePath, line: UInt = #line
) async -> ScheduleExploration {
    let exploration = await explore(count, seed: seed, strategy: strategy, stopAfter: failureLimit, body)
    for failure in exploration.failures {
        XCTFail("\(failure)", file: file, line: line)
    }
    return exploration
}
