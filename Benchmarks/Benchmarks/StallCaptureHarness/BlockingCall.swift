// The seven blocking calls of issue 27, each made once for a given length,
// and what came back: how long it took, errno, the result.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

enum BlockingCall: String, CaseIterable, Sendable {
    case usleep, nanosleep, poll, select
    case semTimedwait = "sem_timedwait"
    case condTimedwait = "pthread_cond_timedwait"
    case read = "read"
}

/// One call as the caller saw it.
struct CallResult: Sendable {
    var milliseconds: Double
    var errorNumber: Int32
    var result: Int

    var isInterrupted: Bool { errorNumber == EINTR }
}

/// The function every report's backtrace must name: it makes the call.
let callerName = "blockingCall"

/// Milliseconds on the monotonic clock.
func monotonicMilliseconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1e6
}

/// `CLOCK_REALTIME` now + `milliseconds`: the absolute deadline the timed waits take.
private func realtimeDeadline(_ milliseconds: Int) -> timespec {
    var deadline = timespec()
    clock_gettime(CLOCK_REALTIME, &deadline)
    let nanoseconds = deadline.tv_nsec + (milliseconds % 1000) * 1_000_000
    deadline.tv_sec += milliseconds / 1000 + nanoseconds / 1_000_000_000
    deadline.tv_nsec = nanoseconds % 1_000_000_000
    return deadline
}

/// Makes `call` once, for `milliseconds`, not retried (as most code does).
/// `read` reads a pipe that another thread writes after `milliseconds`.
@inline(never)
func blockingCall(_ call: BlockingCall, milliseconds: Int) -> CallResult {
    let start = monotonicMilliseconds()
    errno = 0
    var result = 0
    var readEnd: Int32 = -1
    var writer: pthread_t?
    var pipeEnds: [Int32] = [-1, -1]
    if call == .read {
        guard pipe(&pipeEnds) == 0 else { fatalError("pipe: \(errno)") }
        readEnd = pipeEnds[0]
        let context = UnsafeMutablePointer<Int32>.allocate(capacity: 2)
        context[0] = pipeEnds[1]
        context[1] = Int32(milliseconds)
        var thread = pthread_t()
        pthread_create(&thread, nil, { pointer in
            let context = pointer!.assumingMemoryBound(to: Int32.self)
            let due = monotonicMilliseconds() + Double(context[1])
            // The writer retries its own sleep: only the reader is under test.
            var left = due - monotonicMilliseconds()
            while left > 0 {
                usleep(UInt32(left * 1000))
                left = due - monotonicMilliseconds()
            }
            var byte: UInt8 = 1
            _ = write(context[0], &byte, 1)
            context.deallocate()
            return nil
        }, context)
        writer = thread
        errno = 0
    }
    switch call {
    case .usleep:
        result = Int(usleep(UInt32(milliseconds * 1000)))
    case .nanosleep:
        var length = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
        result = Int(nanosleep(&length, nil))
    case .poll:
        result = Int(poll(nil, 0, Int32(milliseconds)))
    case .select:
        var length = timeval(tv_sec: milliseconds / 1000, tv_usec: (milliseconds % 1000) * 1000)
        result = Int(select(0, nil, nil, nil, &length))
    case .semTimedwait:
        var semaphore = sem_t()
        sem_init(&semaphore, 0, 0)
        var deadline = realtimeDeadline(milliseconds)
        result = Int(sem_timedwait(&semaphore, &deadline))
        sem_destroy(&semaphore)
    case .condTimedwait:
        var mutex = pthread_mutex_t()
        var condition = pthread_cond_t()
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
        var deadline = realtimeDeadline(milliseconds)
        pthread_mutex_lock(&mutex)
        // Returns its error (ETIMEDOUT), not errno; a spurious wake-up would return 0 early.
        result = Int(pthread_cond_timedwait(&condition, &mutex, &deadline))
        pthread_mutex_unlock(&mutex)
        pthread_cond_destroy(&condition)
        pthread_mutex_destroy(&mutex)
    case .read:
        var byte: UInt8 = 0
        result = read(readEnd, &byte, 1)
    }
    let elapsed = monotonicMilliseconds() - start
    let error = result < 0 ? errno : 0  // pthread_cond_timedwait returns ETIMEDOUT itself, never EINTR
    if let writer {
        pthread_join(writer, nil)
        close(pipeEnds[0])
        close(pipeEnds[1])
    }
    return CallResult(milliseconds: elapsed, errorNumber: error, result: result)
}
