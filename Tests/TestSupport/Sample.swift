import Foundation

/// Text-like bytes (compressible) and random bytes (not), deterministic.
package enum Sample {
    package static func text(_ count: Int, seed: UInt64 = 1) -> Data {
        let words = ["alpha", "beta", "gamma", "delta", "squeeze", "actor", "main", "task", "file", "chunk", "\n"]
        var generator = SplitMix64(seed: seed)
        var data = Data(capacity: count + 16)
        while data.count < count {
            data.append(contentsOf: words[Int(generator.next() % UInt64(words.count))].utf8)
            data.append(32)
        }
        return data.prefix(count)
    }

    package static func random(_ count: Int, seed: UInt64 = 2) -> Data {
        var generator = SplitMix64(seed: seed)
        var data = Data(capacity: count + 8)
        while data.count < count { withUnsafeBytes(of: generator.next()) { data.append(contentsOf: $0) } }
        return data.prefix(count)
    }
}

/// SplitMix64, the same generator as the demo corpus's, kept here so a
/// test's sample bytes never change with the app; the one seeded generator
/// the tests share.
package struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    package init(seed: UInt64) { state = seed }
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
