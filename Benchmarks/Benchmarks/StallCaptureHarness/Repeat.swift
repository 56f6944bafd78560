// `repeat N`: N blocks in this one process, cycling through the seven calls
// on the main actor and on every pool thread, 150–300 ms each (so each is
// a stall at the 100 ms threshold, and its threads are captured). Counts
// calls that came back with EINTR or early (< 98% of their length), and fails
// if there is one. Prints, too, the captures whose signal found a thread at
// a system-call instruction (`_StackCaptureCost.interruptedCalls`): an upper
// bound of the calls interrupted elsewhere in the process, since it also
// counts a call that had just returned by itself when the signal came (a
// runnable thread leaving a futex wait; `stall-capture.sh strace` shows
// which calls, if any, really returned EINTR or were restarted).
import ConcurrencyToolkit
import HarnessSupport

func runRepeat(count: Int) async -> Bool {
    let combinations = Place.allCases.flatMap { place in BlockingCall.allCases.map { (place, $0) } }
    let interruptedBefore = _StackCaptureCost.interruptedCalls
    var calls = 0
    var interrupted = 0
    var shortened = 0
    var late = 0
    var reported = 0
    var extraReports = 0
    var ratios: [Double] = []
    var problems: [String] = []
    let started = monotonicMilliseconds()
    for index in 0..<count {
        let (place, call) = combinations[index % combinations.count]
        let length = 150 + index * 37 % 151  // 150–300 ms, spread evenly
        let from = receivedCount()
        let results = await block(place, with: call, milliseconds: length)
        let ended = await reports(about: place, since: from, wait: 600, settle: 30).filter { !$0.isOngoing }
        for result in results {
            calls += 1
            let bad = result.isInterrupted || result.milliseconds < Double(length) * 0.98
            if result.isInterrupted { interrupted += 1 }
            if result.milliseconds < Double(length) * 0.98 { shortened += 1 }
            if result.milliseconds > Double(length) * 1.02 { late += 1 }
            if bad {
                problems.append("block \(index + 1) \(place.rawValue) \(call.rawValue) \(length) ms: returned after "
                    + "\(format(result.milliseconds)) ms\(result.isInterrupted ? ", EINTR" : "")")
            }
        }
        if !ended.isEmpty { reported += 1 }
        extraReports += max(0, ended.count - 1)
        if let first = ended.first { ratios.append(milliseconds(first.duration) / Double(length)) }
        try? await Task.sleep(for: .milliseconds(50))  // the probes run between blocks
    }
    let captures = _StackCaptureCost.interruptedCalls - interruptedBefore
    ratios.sort()
    let middle = median(ratios)
    print("Stall capture, \(count) blocks of 150–300 ms in one process (the 7 calls × main actor, \(poolWidth) pool threads), "
        + "detector at 100 ms, \(format((monotonicMilliseconds() - started) / 1000)) s:")
    print("  calls: \(calls); interrupted (EINTR): \(interrupted); returned early (< 98%): \(shortened); "
        + "late (> 102%, machine load): \(late)")
    print("  captures whose signal found a thread at a system-call instruction (interruptedCalls, "
        + "an upper bound of calls interrupted elsewhere): \(captures)")
    print("  blocks with an ended report: \(reported) of \(count); second reports of one block: \(extraReports); "
        + "report ÷ block length: median \(format(middle, places: 3)), min \(format(ratios.first ?? .nan, places: 3)), "
        + "max \(format(ratios.last ?? .nan, places: 3))")
    for problem in problems.prefix(20) { print("  " + problem) }
    let clean = interrupted == 0 && shortened == 0
    print(clean ? "repeat: no call interrupted" : "repeat: FAILED, calls were interrupted")
    return clean
}
