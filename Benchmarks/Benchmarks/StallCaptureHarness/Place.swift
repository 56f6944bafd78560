// Where a block happens (the main actor, or every thread of the cooperative
// pool at once), and the stall reports the detector gives about it.
import ConcurrencyToolkit
import HarnessSupport
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

enum Place: String, CaseIterable, Sendable {
    case mainActor = "main actor"
    case pool = "pool"

    /// The kind of stall a block here is.
    func matches(_ stall: ConcurrencyStall) -> Bool {
        switch self {
        case .mainActor: stall.kind == .mainActorBlocked
        case .pool: stall.kind == .cooperativePoolBlocked && stall.priority == .medium
        }
    }
}

/// Pool threads: one task per processor, so every pool thread blocks.
let poolWidth = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))

@MainActor @inline(never)
func blockMainActor(_ call: BlockingCall, milliseconds: Int) -> CallResult {
    blockingCall(call, milliseconds: milliseconds)
}

/// Blocks `place` with `call` for `milliseconds`; one result per blocked thread.
func block(_ place: Place, with call: BlockingCall, milliseconds: Int) async -> [CallResult] {
    switch place {
    case .mainActor:
        return [await blockMainActor(call, milliseconds: milliseconds)]
    case .pool:
        return await withTaskGroup(of: CallResult.self) { group in
            for _ in 0..<poolWidth {
                group.addTask(priority: .medium) { blockingCall(call, milliseconds: milliseconds) }
            }
            var results: [CallResult] = []
            for await result in group { results.append(result) }
            return results
        }
    }
}

/// Every stall the process-wide handler received, in order.
let received = Mutex<[ConcurrencyStall]>([])

func startDetector() {
    ConcurrencyStallHandler.bootstrap(.custom { stall in received.withLock { $0.append(stall) } })
    StallDetector.start(threshold: .milliseconds(100))
}

/// The reports about `place` received since `from` (an index into `received`),
/// after waiting for an ended one (up to `wait` ms) and then `settle` ms more,
/// so a second report of the same block would be seen too.
func reports(about place: Place, since from: Int, wait: Int = 1500, settle: Int = 150) async -> [ConcurrencyStall] {
    func current() -> [ConcurrencyStall] { received.withLock { Array($0[min(from, $0.count)...]) }.filter(place.matches) }
    let deadline = monotonicMilliseconds() + Double(wait)
    while monotonicMilliseconds() < deadline, !current().contains(where: { !$0.isOngoing }) {
        try? await Task.sleep(for: .milliseconds(10))
    }
    try? await Task.sleep(for: .milliseconds(settle))
    return current()
}

func receivedCount() -> Int { received.withLock { $0.count } }

