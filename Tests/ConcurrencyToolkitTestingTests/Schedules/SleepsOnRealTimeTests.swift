import ConcurrencyToolkitTesting
import Synchronization
import Testing
import TestSupport

#if os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a schedule's sleeps run on real time, pinned to the toolchain (the
/// guide's "Time"). Issue 41 asked for virtual time through the runtime's
/// exported `swift_task_enqueueGlobalWithDeadline_hook` (and its `…WithDelay`
/// sibling); on Swift 6.3 `Task.sleep` and the standard clocks hand their
/// wake-up to the nearest `SchedulingExecutor` (toolchain SPI), which on
/// Linux is always the default executor, and it goes straight to Dispatch:
/// the hooks are never called. When a toolchain changes that, the first test
/// fails and virtual time without SPI is worth another try.
@Suite(.timingSensitive) struct SleepsOnRealTimeTests {
    @Test func noSleepReachesTheRuntimesDeadlineHooks() async throws {
        let hooks = try #require(RuntimeSleepHooks.install())
        defer { hooks.uninstall() }
        let sleeps: @Sendable () async throws -> Void = {
            try await Task.sleep(for: .milliseconds(5))
            try await Task.sleep(until: .now + .milliseconds(5), clock: .suspending)
            try await ContinuousClock().sleep(for: .milliseconds(5))
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        try await Task.detached { try await sleeps() }.value
        try await replaySchedule(seed: 1, sleeps)
        // The control: the hooks are found and called with this ABI.
        #expect(globalEnqueues.load(ordering: .relaxed) > 0)
        #expect(
            sleepEnqueues.load(ordering: .relaxed) == 0,
            "this toolchain hands sleeps to the deadline hooks: see MakingRacesReproducible.md, Time"
        )
    }

    @Test func aSleepInAScheduleTakesItsRealTime() async throws {
        let clock = ContinuousClock()
        let started = clock.now
        try await replaySchedule(seed: 1) {
            async let short: Void = Task.sleep(for: .milliseconds(150))
            try await Task.sleep(for: .milliseconds(300))
            try await short
        }
        // A lower bound only: a loaded machine makes it longer, never shorter.
        #expect(clock.now - started >= .milliseconds(300))
    }

    /// The cost of no virtual time for a bare sleep (`ScheduleClock` has
    /// it): a 60 s sleep is not waited for, it is reported after the 2 s
    /// grace (the sleeping task is abandoned).
    @Test func aSleepLongerThanTheGraceReadsAsADeadlock() async {
        let clock = ContinuousClock()
        let started = clock.now
        let exploration = await exploreSchedules(1) { try await Task.sleep(for: .seconds(60)) }
        #expect(exploration.failures.count == 1)
        #expect(exploration.failures.first?.isDeadlock == true)
        // Not the 60 s: the grace, with room for a loaded machine.
        #expect(clock.now - started < .seconds(50))
    }
}

/// What the hooks below saw. Globals: a hook is a thin function, which
/// captures nothing, not even its enclosing type.
private let sleepEnqueues = Atomic<Int>(0)
private let globalEnqueues = Atomic<Int>(0)

/// The runtime's enqueue hooks, found with `dlsym` as issue 41 proposed:
/// counting, and passing every job on to the runtime's own function.
private enum RuntimeSleepHooks {
    typealias DeadlineOriginal = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob) -> Void
    typealias DeadlineHook = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob, DeadlineOriginal) -> Void
    typealias DelayOriginal = @convention(thin) (UInt64, UnownedJob) -> Void
    typealias DelayHook = @convention(thin) (UInt64, UnownedJob, DelayOriginal) -> Void
    typealias GlobalOriginal = @convention(thin) (UnownedJob) -> Void
    typealias GlobalHook = @convention(thin) (UnownedJob, GlobalOriginal) -> Void

    struct Installed {
        let deadline: UnsafeMutablePointer<DeadlineHook?>
        let delay: UnsafeMutablePointer<DelayHook?>
        let global: UnsafeMutablePointer<GlobalHook?>

        func uninstall() {
            deadline.pointee = nil
            delay.pointee = nil
            global.pointee = nil
        }
    }

    /// Nil when a hook is missing or already taken (nothing in the package installs one).
    static func install() -> Installed? {
        let process = UnsafeMutableRawPointer(bitPattern: 0)   // RTLD_DEFAULT
        guard let deadline = dlsym(process, "swift_task_enqueueGlobalWithDeadline_hook"),
              let delay = dlsym(process, "swift_task_enqueueGlobalWithDelay_hook"),
              let global = dlsym(process, "swift_task_enqueueGlobal_hook")
        else { return nil }
        let hooks = Installed(
            deadline: deadline.assumingMemoryBound(to: DeadlineHook?.self),
            delay: delay.assumingMemoryBound(to: DelayHook?.self),
            global: global.assumingMemoryBound(to: GlobalHook?.self)
        )
        guard hooks.deadline.pointee == nil, hooks.delay.pointee == nil, hooks.global.pointee == nil else { return nil }
        hooks.deadline.pointee = { seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job, original in
            sleepEnqueues.add(1, ordering: .relaxed)
            original(seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job)
        }
        hooks.delay.pointee = { nanoseconds, job, original in
            sleepEnqueues.add(1, ordering: .relaxed)
            original(nanoseconds, job)
        }
        hooks.global.pointee = { job, original in
            globalEnqueues.add(1, ordering: .relaxed)
            original(job)
        }
        return hooks
    }
}
#endif
