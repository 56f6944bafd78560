import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Dispatch
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport

/// The failures the assertion records are intercepted while it runs, then
/// asserted on (``FailureInterceptingTestCase``).
final class XCTAssertNoConcurrencyStallTests: FailureInterceptingTestCase {
    func testBlockingEveryPoolThreadFailsTheTest() async {
        intercepted = []
        let width = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        let value = await XCTAssertNoConcurrencyStall(threshold: .milliseconds(200), {
            // XCTest runs async tests at .high: the blockers inherit it.
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<width { group.addTask { holdThePool(milliseconds: 500) } }
            }
            return 7
        }, "importing")
        let failures = intercepted ?? []
        intercepted = nil
        XCTAssertEqual(value, 7)
        let pool = failures.filter { $0.contains("importing: the cooperative pool started no job") }
        XCTAssertEqual(pool.count, 1, "\(failures)")
        #if os(Linux)
        if !isRunningUnderThreadSanitizer {  // ThreadSanitizer: no stacks
            XCTAssertTrue(pool.first?.contains("holdThePool(milliseconds:)") ?? false, "\(failures)")
        }
        #endif
    }
}

@inline(never)
func holdThePool(milliseconds: Int) {
    let end = DispatchTime.now().uptimeNanoseconds + UInt64(milliseconds) * 1_000_000
    while DispatchTime.now().uptimeNanoseconds < end { usleep(5_000) }
}
