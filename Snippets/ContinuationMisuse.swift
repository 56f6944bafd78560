// The walkthrough's continuation-misuse example (Documentation/Walkthrough.md,
// "Continuation misuse"): a callback API that calls back twice, or never,
// bridged with withSafeContinuation. Run it: swift run ContinuationMisuse
import ConcurrencyToolkit

/// A callback API with both classic bugs: it calls back twice for a `.log`
/// file and never for an empty name.
func legacyCompress(_ name: String, _ done: @escaping @Sendable (Int) -> Void) {
    if name.isEmpty { return }                        // bug: never calls back
    done(name.utf8.count)
    if name.hasSuffix(".log") { done(0) }             // bug: calls back twice
}

func compressedSize(_ name: String) async -> Int {
    await withSafeContinuation(ifLeaked: -1) { continuation in
        legacyCompress(name) { size in continuation.resume(returning: size) }
    }
}

print("twice:", await compressedSize("server.log"))
print("never:", await compressedSize(""))
