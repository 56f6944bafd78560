import Foundation
import Testing
@testable import FileSqueezerCore
import TestSupport

@Suite("MainActorHeartbeat", .timingSensitive)
@MainActor
struct MainActorHeartbeatTests {
    /// Keeps the main actor from running anything else for `duration`: a
    /// synchronous stretch of a main-actor test.
    func holdMainActor(for duration: Duration) {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < duration { usleep(1_000) }
    }

    /// The promise in the type's documentation: a stall of `L` is reported as
    /// at least `L − interval`. Only the lower bound is checked: other tests
    /// may keep the main actor busy too, which can only make the stall longer.
    @Test("a main actor blocked for 300 ms is reported as a stall of at least 300 ms minus one interval")
    func blockedMainActor() async throws {
        let heartbeat = MainActorHeartbeat()
        heartbeat.start()
        // Let it beat at least once, so the stall below starts mid-interval at worst.
        try await Task.sleep(for: heartbeat.interval * 3)
        let blocked = Duration.milliseconds(300)
        holdMainActor(for: blocked)
        try await Task.sleep(for: heartbeat.interval * 3)
        let stall = heartbeat.stop()
        #expect(stall >= blocked - heartbeat.interval, "stall \(stall)")
    }

    @Test("a stall still under way when it stops counts: nothing beat since")
    func stallUnderWayAtStop() async throws {
        let heartbeat = MainActorHeartbeat()
        heartbeat.start()
        try await Task.sleep(for: heartbeat.interval * 3)
        holdMainActor(for: .milliseconds(200))
        #expect(heartbeat.stop() >= .milliseconds(200) - heartbeat.interval)
    }
}
