@testable import ConcurrencyToolkit
import Testing
import TestSupport

@Suite struct WaitHistogramTests {
    @Test func everyValueFallsInABucketWhoseMiddleIsWithinAQuarter() {
        for value in [UInt64(0), 1, 3, 4, 5, 7, 8, 100, 1_000, 123_456, 50_000_000, 3_000_000_000, UInt64.max / 2] {
            let bucket = WaitHistogram.bucket(of: value)
            #expect(bucket < WaitHistogram.bucketCount)
            let middle = Double(WaitHistogram.representative(of: bucket))
            #expect(abs(middle - Double(value)) <= Double(value) / 4 + 1, "\(value) -> \(middle)")
        }
    }

    @Test func percentilesOfAKnownSpread() {
        var waits = WaitHistogram()
        #expect(waits.percentile(0.5) == nil)
        for _ in 0..<98 { waits.record(1_000) }
        waits.record(1_000_000)
        waits.record(50_000_000)
        let median = Double(waits.percentile(0.5)!)
        #expect(median > 750 && median < 1_250)
        let p99 = Double(waits.percentile(0.99)!)
        #expect(p99 > 750_000 && p99 < 1_250_000)
        let top = Double(waits.percentile(1)!)
        #expect(top > 37_500_000 && top < 62_500_000)
    }
}
