/// A detector's threshold, checked where the caller gave it. Zero or less is
/// a programmer error and stops the process with a message (in release
/// builds too). A positive value below `floor` is raised to the floor, with
/// one warning line per API and process: waits that short are the
/// scheduler's (a thread's wake-up, a time slice), and a detector set below
/// them reports an idle program's noise.
enum DetectorThreshold {
    private static let warned = Lock<Set<String>>([])

    static func checked(_ threshold: Duration, floor: Duration, call: String) -> Duration {
        checkPrecondition(threshold > .zero, "\(call)(threshold: \(threshold)): threshold must be more than zero")
        guard threshold < floor else { return threshold }
        if warned.withLock({ $0.insert(call).inserted }) {
            writeToStandardError(
                "warning: \(call)(threshold: \(threshold)) is below its floor of \(floor); using \(floor) "
                    + "(shorter waits are the scheduler's, not the program's)\n")
        }
        return floor
    }
}
