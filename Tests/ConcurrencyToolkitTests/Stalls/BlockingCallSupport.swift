@testable import ConcurrencyToolkit
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if os(Linux)
/// One blocking call as a user writes it, not retried: how long it took,
/// and its result and `errno`. A capture that interrupted it would show as
/// a short time or `EINTR`.
struct BlockingCallOutcome: Sendable {
    var milliseconds: Double
    var result: Int
    var error: Int32

    /// Took its full length (less 2% at most) and did not fail with `EINTR`.
    /// Later is the machine's load, not an interruption: the benchmark
    /// harness (`stall-capture.sh`) checks ±2% on a quiet machine.
    func keptItsLength(_ expected: Double) -> Bool {
        milliseconds >= expected * 0.98 && error != EINTR
    }

    var line: String { "CALL\t\(milliseconds)\t\(result)\t\(error)\n" }

    static func parse(_ standardError: [UInt8]) -> [BlockingCallOutcome] {
        String(decoding: standardError, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t")
            guard fields.count == 4, fields[0] == "CALL", let milliseconds = Double(fields[1]), let result = Int(fields[2]),
                let error = Int32(fields[3])
            else { return nil }
            return BlockingCallOutcome(milliseconds: milliseconds, result: result, error: error)
        }
    }
}

enum BlockingCall: String, Sendable, CaseIterable {
    case usleep, nanosleep, poll, select, semTimedwait, condTimedwait, pipeRead

    /// The C function, as the report's first line must name it (`blocked in read`).
    /// `sem_timedwait` is named from the caller's call instruction, which is
    /// decoded on x86-64 only (`CallTarget`).
    var functionName: String {
        switch self {
        #if arch(x86_64)
        case .semTimedwait: "sem_timedwait"
        #else
        case .semTimedwait: "a system call"
        #endif
        case .condTimedwait: "pthread_cond_timedwait"
        case .pipeRead: "read"
        default: rawValue
        }
    }
}

/// The caller the stall report must name.
@inline(never)
func callThatBlocks(_ call: BlockingCall, milliseconds: Int) -> BlockingCallOutcome {
    let start = MonotonicClock.now
    errno = 0
    var result = 0
    let seconds = milliseconds / 1000
    let nanoseconds = (milliseconds % 1000) * 1_000_000
    func deadline() -> timespec {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        let total = time.tv_nsec + nanoseconds
        time.tv_sec += seconds + total / 1_000_000_000
        time.tv_nsec = total % 1_000_000_000
        return time
    }
    switch call {
    case .usleep:
        result = Int(usleep(useconds_t(milliseconds * 1000)))
    case .nanosleep:
        var time = timespec(tv_sec: seconds, tv_nsec: nanoseconds)
        result = Int(nanosleep(&time, nil))
    case .poll:
        result = Int(poll(nil, 0, Int32(milliseconds)))
    case .select:
        var time = timeval(tv_sec: seconds, tv_usec: nanoseconds / 1000)
        result = Int(select(0, nil, nil, nil, &time))
    case .semTimedwait:
        var semaphore = sem_t()
        sem_init(&semaphore, 0, 0)
        var time = deadline()
        result = Int(sem_timedwait(&semaphore, &time))
        if result == -1 && errno == ETIMEDOUT { errno = 0 }
    case .condTimedwait:
        var mutex = pthread_mutex_t()
        var condition = pthread_cond_t()
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
        var time = deadline()
        pthread_mutex_lock(&mutex)
        // Spurious wake-ups are allowed: wait again until the deadline, as callers do.
        repeat { result = Int(pthread_cond_timedwait(&condition, &mutex, &time)) } while result == 0
        pthread_mutex_unlock(&mutex)
        if result == Int(ETIMEDOUT) { result = 0 }
    case .pipeRead:
        // Written by a plain thread that sleeps first: a capture that
        // signalled that thread would cut its sleep, and so the read.
        var ends: [Int32] = [0, 0]
        _ = pipe(&ends)
        let writer = PipeWriter(descriptor: ends[1], afterMilliseconds: milliseconds)
        var byte: UInt8 = 0
        result = read(ends[0], &byte, 1)
        writer.join()
        close(ends[0])
        close(ends[1])
    }
    let error = errno
    return BlockingCallOutcome(milliseconds: Double(MonotonicClock.now - start) / 1e6, result: result, error: error)
}

/// A plain thread that writes one byte after sleeping.
final class PipeWriter: @unchecked Sendable {
    // @unchecked: `thread` is written before the thread starts and read by join().
    private var thread = pthread_t()
    private let descriptor: Int32
    private let milliseconds: Int

    init(descriptor: Int32, afterMilliseconds milliseconds: Int) {
        self.descriptor = descriptor
        self.milliseconds = milliseconds
        let body = Unmanaged.passRetained(self).toOpaque()
        pthread_create(&thread, nil, { raw in
            let writer = Unmanaged<PipeWriter>.fromOpaque(raw!).takeRetainedValue()
            usleep(useconds_t(writer.milliseconds * 1000))
            var byte: UInt8 = 1
            _ = write(writer.descriptor, &byte, 1)
            return nil
        }, body)
    }

    func join() { pthread_join(thread, nil) }
}
#endif
