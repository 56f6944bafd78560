import ConcurrencyToolkit
import ConcurrencyToolkitTesting

/// A continuation resumed once reports nothing.
func checkContinuations() async {
    let (value, misuses) = await withContinuationMisuseRecorded {
        await withSafeContinuation(ifLeaked: 0) { continuation in
            continuation.resume(returning: 42)
        }
    }
    check(value == 42 && misuses.isEmpty, "SafeContinuation returned \(value), \(misuses.count) reports")
    print("consumer: SafeContinuation returned \(value), \(misuses.count) misuse reports")
}
