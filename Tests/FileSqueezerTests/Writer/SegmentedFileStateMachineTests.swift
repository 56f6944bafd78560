import Testing
@testable import FileSqueezerCore
import TestSupport

/// Every transition of the segmented file's bookkeeping, driven without
/// threads or files: `Opened` is a string naming the handles, `Output` a
/// string standing for a segment's compressed bytes.
@Suite("Segmented file state machine")
struct SegmentedFileStateMachineTests {
    typealias Machine = SegmentedFileStateMachine<String, String>

    /// A machine whose original is open as "handles".
    func opened(segments: Int) -> Machine {
        var machine = Machine(segmentCount: segments)
        guard case .open = machine.startSegment() else {
            Issue.record("a new file must ask to be opened")
            return machine
        }
        machine.opened("handles")
        return machine
    }

    /// Drains as the elected writer would, writing every compressed segment.
    /// - Returns: The indices taken, in order, and whether a run ended the file.
    func drainAndWrite(_ machine: inout Machine) -> (taken: [Int], wrote: [Int], endsFile: Bool) {
        var taken: [Int] = []
        var wrote: [Int] = []
        var endsFile = false
        while var run = machine.takeReadyRun() {
            endsFile = endsFile || run.endsFile
            while let (index, result) = run.segments.popLast() {
                taken.append(index)
                guard run.output != nil, case .compressed(let bytes, let crc, let length) = result,
                    let write = machine.beginWrite(index, crc: crc, length: length)
                else { continue }
                _ = machine.written(write, bytes: Int64(bytes.count), length: length)
                wrote.append(index)
            }
        }
        return (taken, wrote, endsFile)
    }

    @Test("the first segment opens; later ones use the open original")
    func opensOnce() {
        var machine = Machine(segmentCount: 2)
        guard case .open = machine.startSegment() else { Issue.record("expected .open"); return }
        machine.opened("handles")
        guard case .use(let handles) = machine.startSegment() else { Issue.record("expected .use"); return }
        #expect(handles == "handles")
    }

    @Test("a failed open stops the file: later segments skip, finishing has nothing to remove")
    func openFailure() {
        var machine = Machine(segmentCount: 2)
        _ = machine.startSegment()
        machine.openFailed()
        #expect(machine.stopped)
        guard case .skip = machine.startSegment() else { Issue.record("expected .skip"); return }
        let elected1 = machine.deposit(0, .failed("no such file"), busy: .seconds(1))
        #expect(elected1)
        let elected2 = machine.deposit(1, .skipped, busy: .zero)
        #expect(!elected2)
        let drained = drainAndWrite(&machine)
        #expect(drained.taken == [0, 1] && drained.wrote.isEmpty && drained.endsFile)
        guard let action = machine.finish(), case .nothingOpened(let cancelled) = action else {
            Issue.record("expected .nothingOpened")
            return
        }
        #expect(!cancelled)
        let ending = machine.ending(after: action, commitFailure: nil, bytesOut: 0, ending: .zero)
        #expect(ending == .init(failure: "no such file", cancelled: false, bytesOut: 0, busy: .seconds(1), bytesWritten: 0))
    }

    @Test("segments deposited out of order are written in order, one drainer at a time")
    func writesInOrder() {
        var machine = opened(segments: 3)
        let elected3 = machine.deposit(2, .compressed("cc", crc: 3, length: 10), busy: .seconds(1))
        #expect(elected3)
        let drained4 = drainAndWrite(&machine)
        #expect(drained4.taken.isEmpty)  // segment 0 missing: the turn ends
        let elected5 = machine.deposit(1, .compressed("bb", crc: 2, length: 10), busy: .seconds(1))
        #expect(elected5)
        let drained6 = drainAndWrite(&machine)
        #expect(drained6.taken.isEmpty)
        let elected7 = machine.deposit(0, .compressed("aaa", crc: 1, length: 10), busy: .seconds(1))
        #expect(elected7)
        let drained = drainAndWrite(&machine)
        #expect(drained.taken == [0, 1, 2] && drained.wrote == [0, 1, 2] && drained.endsFile)
        #expect(machine.bytesWritten == 30 && machine.bytesOut == 7 && machine.busy == .seconds(3))
    }

    @Test("a deposit while someone drains does not elect a second drainer")
    func oneDrainer() {
        var machine = opened(segments: 3)
        let elected8 = machine.deposit(0, .compressed("a", crc: 1, length: 10), busy: .zero)
        #expect(elected8)
        let run = machine.takeReadyRun()
        #expect(run?.segments.map(\.index) == [0] && run?.endsFile == false && run?.output == "handles")
        let elected9 = machine.deposit(1, .compressed("b", crc: 2, length: 10), busy: .zero)
        #expect(!elected9)
        let next10 = machine.takeReadyRun()
        #expect(next10?.segments.map(\.index) == [1])
        let next11 = machine.takeReadyRun()
        #expect(next11 == nil)
        let elected12 = machine.deposit(2, .compressed("c", crc: 3, length: 10), busy: .zero)
        #expect(elected12)
    }

    @Test("writes combine the CRCs; only the last segment gets a trailer size")
    func crcAndTrailer() {
        var machine = opened(segments: 2)
        let first = machine.beginWrite(0, crc: 0x1111, length: 4)
        #expect(first == .init(crc: 0x1111, trailerSize: nil))
        let firstProgress = machine.written(first!, bytes: 3, length: 4)
        #expect(firstProgress.previous == 0 && firstProgress.total == 4)
        let last = machine.beginWrite(1, crc: 0x2222, length: 6)
        #expect(last == .init(crc: GzipFormat.combine(0x1111, 0x2222, secondLength: 6), trailerSize: 10))
        let lastProgress = machine.written(last!, bytes: 5, length: 6)
        #expect(lastProgress.previous == 4 && lastProgress.total == 10)
        #expect(machine.crc == last!.crc)
    }

    @Test("a one-segment file's trailer records the bytes actually read")
    func oneSegmentTrailer() {
        let machine = opened(segments: 1)
        #expect(machine.beginWrite(0, crc: 7, length: 99)?.trailerSize == 99)
    }

    @Test("after the last write the file commits what was read and written")
    func commits() {
        var machine = opened(segments: 1)
        let elected13 = machine.deposit(0, .compressed("abcd", crc: 1, length: 9), busy: .seconds(2))
        #expect(elected13)
        let drained14 = drainAndWrite(&machine)
        #expect(drained14.endsFile)
        guard let action = machine.finish(), case .commit(let handles, let read, let out) = action else {
            Issue.record("expected .commit")
            return
        }
        #expect(handles == "handles" && read == 9 && out == 4)
        let again15 = machine.finish()
        #expect(again15 == nil, "finishing is once")
        if case .closed = machine.phase {} else { Issue.record("expected .closed") }
        let ending = machine.ending(after: action, commitFailure: nil, bytesOut: out, ending: .seconds(1))
        #expect(ending == .init(failure: nil, cancelled: false, bytesOut: 4, busy: .seconds(3), bytesWritten: 9))
    }

    @Test("a streamed segment (a whole file) counts progress chunk by chunk, and its last write counts its length once")
    func streamedSegment() {
        var machine = opened(segments: 1)
        let first = machine.streamed(bytes: 0, through: 100)
        #expect(first.previous == 0 && first.total == 100, "a chunk deflated, nothing written yet")
        let second = machine.streamed(bytes: 40, through: 250)
        #expect(second.previous == 100 && second.total == 250)
        let last = machine.streamed(bytes: 0, through: 300)
        #expect(last.previous == 250 && last.total == 300)
        _ = machine.deposit(0, .compressed("rest", crc: 7, length: 300), busy: .zero)
        guard var run = machine.takeReadyRun(), let (index, _) = run.segments.popLast() else {
            Issue.record("the streamed segment's rest is ready to write")
            return
        }
        #expect(index == 0 && run.endsFile)
        let write = machine.beginWrite(0, crc: 7, length: 300)
        #expect(write == .init(crc: 7, trailerSize: 300), "the trailer records the whole length, once")
        guard let write else { return }
        let written = machine.written(write, bytes: 12, length: 300)
        #expect(written.previous == 300 && written.total == 300, "no progress counted twice")
        guard let action = machine.finish(), case .commit(_, let read, let out) = action else {
            Issue.record("expected .commit")
            return
        }
        #expect(read == 300 && out == 52)
    }

    @Test("a commit that fails (size changed, move failed) reports that failure")
    func commitFailure() {
        var machine = opened(segments: 1)
        _ = machine.deposit(0, .compressed("x", crc: 1, length: 1), busy: .zero)
        _ = drainAndWrite(&machine)
        let action = machine.finish()!
        let ending = machine.ending(after: action, commitFailure: "size changed", bytesOut: 0, ending: .zero)
        #expect(ending.failure == "size changed" && !ending.cancelled && ending.bytesOut == 0)
    }

    @Test("a failed segment stops the file: later ones skip, none is written, the output is discarded")
    func failureStops() {
        var machine = opened(segments: 3)
        let elected16 = machine.deposit(1, .failed("read error"), busy: .zero)
        #expect(elected16)
        #expect(machine.stopped)
        guard case .skip = machine.startSegment() else { Issue.record("expected .skip"); return }
        _ = machine.deposit(0, .compressed("a", crc: 1, length: 10), busy: .zero)
        let run = machine.takeReadyRun()
        #expect(run?.output == nil, "a stopped file's ready segments are dropped unwritten")
        #expect(machine.beginWrite(0, crc: 1, length: 10) == nil)
        _ = machine.deposit(2, .skipped, busy: .zero)
        guard let action = machine.finish(), case .discard(let handles) = action else {
            Issue.record("expected .discard")
            return
        }
        #expect(handles == "handles")
        let ending = machine.ending(after: action, commitFailure: nil, bytesOut: 0, ending: .zero)
        #expect(ending.failure == "read error" && !ending.cancelled)
    }

    @Test("the earliest segment's failure is the file's, whatever order they come in")
    func earliestFailureWins() {
        var machine = opened(segments: 4)
        _ = machine.deposit(3, .failed("third"), busy: .zero)
        _ = machine.deposit(1, .failed("first"), busy: .zero)
        _ = machine.deposit(2, .failed("second"), busy: .zero)
        machine.writeFailed(2, reason: "write")
        #expect(machine.failure?.segment == 1 && machine.failure?.reason == "first")
        machine.writeFailed(0, reason: "disk full")
        #expect(machine.failure?.reason == "disk full")
    }

    @Test("a failed write stops the file and names the failure")
    func writeFailure() {
        var machine = opened(segments: 2)
        machine.writeFailed(0, reason: "disk full")
        #expect(machine.stopped && machine.beginWrite(1, crc: 0, length: 1) == nil)
        let action = machine.finish()!
        if case .discard = action {} else { Issue.record("expected .discard") }
        #expect(machine.ending(after: action, commitFailure: nil, bytesOut: 0, ending: .zero).failure == "disk full")
    }

    @Test("a cancelled segment stops the file and reports it cancelled")
    func cancellation() {
        var machine = opened(segments: 2)
        let elected17 = machine.deposit(0, .cancelled, busy: .zero)
        #expect(elected17)
        #expect(machine.stopped && machine.cancelled)
        _ = machine.deposit(1, .skipped, busy: .zero)
        let drained18 = drainAndWrite(&machine)
        #expect(drained18.wrote.isEmpty)
        let action = machine.finish()!
        if case .discard = action {} else { Issue.record("expected .discard") }
        let ending = machine.ending(after: action, commitFailure: nil, bytesOut: 0, ending: .zero)
        #expect(ending.failure == nil && ending.cancelled)
    }

    @Test("a file finished before any segment opened it is cancelled")
    func finishedUnopened() {
        var machine = Machine(segmentCount: 2)
        guard let action = machine.finish(), case .nothingOpened(let cancelled) = action else {
            Issue.record("expected .nothingOpened")
            return
        }
        #expect(cancelled)
        #expect(machine.ending(after: action, commitFailure: nil, bytesOut: 0, ending: .zero).cancelled)
        guard case .skip = machine.startSegment() else { Issue.record("a finished file runs no segment"); return }
    }

    @Test("abandoning an open file discards its output and reports it cancelled, once")
    func abandonOpen() {
        var machine = opened(segments: 2)
        _ = machine.deposit(0, .compressed("a", crc: 1, length: 10), busy: .zero)
        _ = drainAndWrite(&machine)
        let abandoned = machine.abandon()
        #expect(abandoned?.discard == "handles")
        #expect(abandoned?.ending == .init(failure: nil, cancelled: true, bytesOut: 0, busy: .zero, bytesWritten: 10))
        let again19 = machine.abandon()
        #expect(again19 == nil)
        let again20 = machine.finish()
        #expect(again20 == nil, "an abandoned file does not finish again")
    }

    @Test("abandoning an unopened file has nothing to discard; abandoning a finished one does nothing")
    func abandonUnopenedOrFinished() {
        var unopened = Machine(segmentCount: 1)
        let again21 = unopened.abandon()
        #expect(again21?.discard == nil)
        var finished = opened(segments: 1)
        _ = finished.finish()
        let again22 = finished.abandon()
        #expect(again22 == nil)
    }
}

