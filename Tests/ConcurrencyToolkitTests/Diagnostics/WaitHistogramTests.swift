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

    /// A percentile is never above the longest wait nor below the shortest:
    /// a bucket's middle can be (1,000 ns sits in the bucket 896–1,023, whose
    /// middle is 960), and a summary whose p99 read above its max was wrong.
    @Test func percentilesStayWithinTheWaitsRecorded() {
        var same = WaitHistogram()
        for _ in 0..<10 { same.record(1_000) }
        #expect(WaitHistogram.representative(of: WaitHistogram.bucket(of: 1_000)) == 960)
        #expect(same.percentile(0.5) == 1_000)
        #expect(same.percentile(0.99) == 1_000)

        var spread = WaitHistogram()
        for wait in [UInt64(180_000), 200_000, 337_030] { spread.record(wait) }
        // 337,030 ns is in the bucket 327,680–393,215, whose middle is above it.
        #expect(WaitHistogram.representative(of: WaitHistogram.bucket(of: 337_030)) > 337_030)
        #expect(spread.percentile(0.99) == 337_030)
        #expect(spread.percentile(1) == 337_030)
        #expect(spread.percentile(0) ?? 0 >= 180_000)
    }
}
