import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import Testing
import TestSupport
extension TimingSensitive {
    @Suite(.longRun) struct StressTests {
        /// 100,000 continuations, each resumed by `racers` threads at once.
        static let total = 100_000
        static let batch = 2_000
        static let racers = 4

        @Test func everyContinuationHasExactlyOneWinnerAndEveryLoserIsReported() async throws {
            let wins = Counter()
            let (checked, misuses) = await withContinuationMisuseRecorded { () async -> Int in
                var checked = 0
                for _ in 0..<(Self.total / Self.batch) {
                    let parked = Collected<SafeContinuation<Int, any Error>>()
                    // Each racer resumes with its own number; the waiter learns who won.
                    let winners = await withTaskGroup(of: Int.self) { group in
                        for _ in 0..<Self.batch {
                            group.addTask {
                                (try? await withSafeThrowingContinuation { (c: SafeContinuation<Int, any Error>) in parked.append(c) }) ?? -1
                            }
                        }
                        _ = await eventually { parked.count == Self.batch }
                        let continuations = parked.removeAll()
                        await Self.race(continuations, wins: wins)
                        return await group.reduce(into: [Int]()) { $0.append($1) }
                    }
                    #expect(winners.count == Self.batch)
                    #expect(winners.allSatisfy { (0..<Self.racers).contains($0) }, "every waiter got a racer's value")
                    checked += winners.count
                }
                return checked
            }
            #expect(checked == Self.total)
            #expect(wins.count == Self.total, "exactly one resume per continuation returned true")
            #expect(misuses.count == Self.total * (Self.racers - 1), "one report per losing resume")
            #expect(misuses.allSatisfy { $0.kind == .resumedMoreThanOnce })
        }

        @Test func timeoutsAndCancellationsRacingTheLastDropFinishEachWaiterOnce() async {
            // The timer and the cancellation handler point to boxes they do not
            // own; here the owner drops the last copy just as they fire.
            let count = 5_000
            let (outcomes, misuses) = await withContinuationMisuseRecorded { () async -> [String] in
                await withTaskGroup(of: String.self) { group in
                    for n in 0..<count {
                        let waiter = Task {
                            let result = await outcome {
                                try await withSafeThrowingContinuation(timeout: .milliseconds(1), onCancel: {}) {
                                    (c: SafeContinuation<Int, any Error>) in
                                    DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(n % 2_000)) { _ = c }
                                }
                            }
                            switch result {
                            case .success: return "resumed"
                            case .failure(SafeContinuationError.timedOut): return "timedOut"
                            case .failure(SafeContinuationError.leaked): return "leaked"
                            case .failure(is CancellationError): return "cancelled"
                            case .failure(let error): return "\(error)"
                            }
                        }
                        if n.isMultiple(of: 3) { waiter.cancel() }
                        group.addTask { await waiter.value }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
            }
            #expect(outcomes.count == count, "every waiter finished")
            #expect(outcomes.allSatisfy { ["timedOut", "leaked", "cancelled"].contains($0) }, "\(Set(outcomes))")
            #expect(misuses.count == outcomes.filter { $0 == "leaked" }.count, "one report per leak, none otherwise")
            #expect(misuses.allSatisfy { $0.kind == .leaked })
        }

        @Test func cancellationRacingTheResumeOrTheLastDropFinishesEachWaiterOnce() async {
            // The cancellation handler reaches the box through an unretained
            // pointer; here one thread cancels each task while another resumes
            // its continuation or drops the last copy of it, at the same moment.
            // (Under ThreadSanitizer this also checks that the handler never
            // touches a freed box.)
            await Self.raceCancellationAgainstResumeOrDrop(rounds: 20, batch: 500)
        }

        @Test func insideATraceRecordingTheCancellationRaceTouchesNoReleasedMemory() async {
            // The same race, with every box carrying extras (the recording's
            // token): a cancellation that wins while the last copy is being
            // dropped ends the box's trace span after `deinit` gave up its
            // extras. Under AddressSanitizer this reported a heap use after
            // free until the frame that installs the handler kept the extras.
            let (_, trace) = await withTraceRecording {
                // Up to 40 rounds, as many as fit in 3 s: a loaded machine
                // gets fewer collisions, never a slow test.
                await Self.raceCancellationAgainstResumeOrDrop(rounds: 40, batch: 500, budget: .seconds(3))
            }
            let cancelled = trace.events.count { if case .continuationCancelled = $0.kind { true } else { false } }
            #expect(cancelled > 0, "the recording saw the cancellations")
        }

        /// Cancels `rounds * batch` waiters from one thread while another
        /// resumes (even index) or drops (odd) each one's continuation at the
        /// same moment, and checks that each waiter finished exactly once.
        /// Starts no new round once `budget` has passed (the first always runs).
        static func raceCancellationAgainstResumeOrDrop(rounds: Int, batch: Int, budget: Duration? = nil) async {
            let deadline = budget.map { ContinuousClock.now + $0 }
            let stops = Counter(), wins = Counter()
            let (outcomes, misuses) = await withContinuationMisuseRecorded { () async -> [String] in
                var outcomes: [String] = []
                for round in 0..<rounds {
                    if round > 0, let deadline, ContinuousClock.now >= deadline { break }
                    let parkings = (0..<batch).map { _ in Collected<SafeContinuation<Int, any Error>>() }
                    let waiters = parkings.map { parking in
                        Task {
                            let result = await outcome {
                                try await withSafeThrowingContinuation(onCancel: { stops.increment() }) {
                                    parking.append($0)
                                }
                            }
                            switch result {
                            case .success: return "resumed"
                            case .failure(SafeContinuationError.leaked): return "leaked"
                            case .failure(is CancellationError): return "cancelled"
                            case .failure(let error): return "\(error)"
                            }
                        }
                    }
                    _ = await eventually { parkings.allSatisfy { $0.count > 0 } }
                    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                        // Two serial queues: each gets its own thread, so the two
                        // sides really run at once (concurrentPerform may not).
                        let lockstep = Lockstep(), group = DispatchGroup()
                        for side in 0..<2 {
                            DispatchQueue(label: "StressTests.race.\(side)").async(group: group) {
                                for index in 0..<batch {
                                    // Both sides reach each index together, so the
                                    // cancellation and the resume or drop really collide.
                                    lockstep.arrive(side, at: index)
                                    if side == 0 {
                                        waiters[index].cancel()
                                    } else if let continuation = parkings[index].removeFirst(), index.isMultiple(of: 2) {
                                        if continuation.resume(returning: index) { wins.increment() }
                                    }  // odd: the last copy goes here
                                }
                            }
                        }
                        group.notify(queue: .global()) { done.resume() }
                    }
                    for waiter in waiters { outcomes.append(await waiter.value) }
                }
                return outcomes
            }
            let count = { (kind: String) in outcomes.count { $0 == kind } }
            #expect(outcomes.count.isMultiple(of: batch) && outcomes.count > 0, "every waiter finished")
            #expect(count("resumed") + count("leaked") + count("cancelled") == outcomes.count, "\(Set(outcomes))")
            #expect(wins.count == count("resumed"), "a resume returned true exactly when it reached the waiter")
            #expect(stops.count == count("cancelled"), "onCancel ran exactly for the waiters cancellation finished")
            #expect(misuses.count == count("leaked") && misuses.allSatisfy { $0.kind == .leaked })
        }

        /// Two threads that wait for each other at every step of a loop.
        final class Lockstep: Sendable {
            private let first = Atomic<Int>(-1)
            private let second = Atomic<Int>(-1)

            /// Waits for the other side to reach `step`; gives up after 5 s so a
            /// starved thread makes the race weaker, never the test hang.
            func arrive(_ side: Int, at step: Int) {
                let deadline = ContinuousClock.now + .seconds(5)
                if side == 0 {
                    first.store(step, ordering: .releasing)
                    while second.load(ordering: .acquiring) < step, ContinuousClock.now < deadline { sched_yield() }
                } else {
                    second.store(step, ordering: .releasing)
                    while first.load(ordering: .acquiring) < step, ContinuousClock.now < deadline { sched_yield() }
                }
            }
        }

        /// Resumes every continuation from `racers` threads running at the same time.
        static func race(_ continuations: [SafeContinuation<Int, any Error>], wins: Counter) async {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    DispatchQueue.concurrentPerform(iterations: racers) { racer in
                        // Different orders so racers really collide on the same continuations.
                        let order = racer.isMultiple(of: 2) ? Array(continuations.indices) : continuations.indices.reversed()
                        for index in order where continuations[index].resume(returning: racer) {
                            wins.increment()
                        }
                    }
                    done.resume()
                }
            }
        }
    }
}
