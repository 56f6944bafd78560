@testable import ConcurrencyToolkit
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if os(Linux)
/// What `/proc/self/task/TID/syscall` says, parsed; and read from live threads.
@Suite struct ThreadStatusTests {
    @Test func parsesTheKernelsLines() {
        #expect(ThreadStatus.parse(syscallLine: "running\n") == .running)
        let poll = "7 0x0 0x0 0x258 0x0 0x0 0x0 0x7ffd3b1e7a38 0x7f2c1a4f626f\n"
        #expect(
            ThreadStatus.parse(syscallLine: poll)
                == .blocked(.init(number: 7, stackPointer: 0x7ffd_3b1e_7a38, programCounter: 0x7f2c_1a4f_626f)))
        #expect(
            ThreadStatus.parse(syscallLine: "-1 0x7ffd3b1e7a38 0x55d0c0ffee00\n")
                == .blocked(.init(number: -1, stackPointer: 0x7ffd_3b1e_7a38, programCounter: 0x55d0_c0ff_ee00)))
        #expect(ThreadStatus.parse(syscallLine: "") == .unknown)
        #expect(ThreadStatus.parse(syscallLine: "7 zz 0x1") == .unknown)
    }

    @Test func parsesMapsLines() throws {
        let code = try #require(MemoryRegions.parse(mapsLine: "7f2c1a400000-7f2c1a5a0000 r-xp 00028000 fe:01 1234 /usr/lib/libc.so.6"))
        #expect(code.start == 0x7f2c_1a40_0000 && code.end == 0x7f2c_1a5a_0000 && code.executable)
        let stack = try #require(MemoryRegions.parse(mapsLine: "7ffd3b1c8000-7ffd3b1e9000 rw-p 00000000 00:00 0 [stack]"))
        #expect(!stack.executable)
        let regions = MemoryRegions(regions: [code, stack])
        #expect(regions.isExecutable(0x7f2c_1a4f_626f))
        #expect(!regions.isExecutable(0x7ffd_3b1e_7a38))
        #expect(regions.region(containing: 0x1000) == nil)
        // Not a region line: nothing.
        for line in ["", "7f2c1a400000", "7f2c1a400000-", "xyz-7f2c1a5a0000 r-xp", "7f2c1a400000-7f2c1a5a0000", "10-20 r-"] {
            #expect(MemoryRegions.parse(mapsLine: line) == nil, "\(line)")
        }
        // The process's own map: the code running this test is executable, its stack is not.
        let own = MemoryRegions.current()
        #expect(own.regions.count > 10)
        #expect(zip(own.regions, own.regions.dropFirst()).allSatisfy { $0.start < $1.start && $0.start < $0.end })
        let getpidAddress = try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "getpid").map { UInt(bitPattern: $0) })
        #expect(own.isExecutable(getpidAddress))
        // (Not "the stack is not executable": libswiftRuntime.so, which the
        // symbolication links, asks for executable stacks, so glibc maps
        // every thread's stack rwx in this process.)
        var local = 0
        let stackAddress = withUnsafeMutablePointer(to: &local) { UInt(bitPattern: $0) }
        #expect(own.region(containing: stackAddress) != nil)
    }

    @Test func namesSystemCallsAndLibraryFunctions() {
        #expect(SystemCalls.plainName("__GI___poll") == "poll")
        #expect(SystemCalls.plainName("__libc_read") == "read")
        #expect(SystemCalls.plainName("clock_nanosleep@@GLIBC_2.17") == "clock_nanosleep")
        #expect(SystemCalls.plainName("usleep") == "usleep")
        #if arch(x86_64)
        #expect(SystemCalls.name(7) == "poll")
        #endif
        #expect(SystemCalls.name(99_999) == "number 99999")
    }

    /// A thread in `poll` is asleep in that call, and its stack, read from
    /// memory, leads from `poll` back into this test's function. It polls a
    /// pipe until the test writes it, so a busy machine cannot make the test
    /// miss the sleep.
    @Test func aThreadInPollIsReadWithoutBeingTouched() async throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let readEnd = ends[0]
        let started = Lock<UInt64?>(nil)
        let result = Lock<(ready: Int32, error: Int32)?>(nil)
        let thread = RawThread { () in
            started.withLock { $0 = CurrentThread.id }
            let ready = pollForAWhile(readEnd)
            let error = errno
            result.withLock { $0 = (ready, error) }
        }
        _ = await eventually(within: .seconds(60)) { started.withLock { $0 } != nil }
        let id = try #require(started.withLock { $0 })
        var call: ThreadStatus.BlockedCall?
        _ = await eventually(within: .seconds(60)) {
            if case .blocked(let found) = ThreadStatus.of(thread: id), found.number >= 0 { call = found }
            return call != nil
        }
        let status = try #require(call)
        let frames = try #require(BlockedStackCapture.capture(thread: id, call: status, regions: MemoryRegions.current())).frames
        #expect(frames.count >= 3, "\(frames)")
        var byte: UInt8 = 1
        #expect(write(ends[1], &byte, 1) == 1)
        thread.join()
        // Looked at, never signalled: the poll ended because the pipe was written, not with EINTR.
        #expect(result.withLock { $0 }?.ready == 1, "\(String(describing: result.withLock { $0 }))")
    }
}

@inline(never)
private func pollForAWhile(_ descriptor: Int32) -> Int32 {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, 120_000)
}

#endif
