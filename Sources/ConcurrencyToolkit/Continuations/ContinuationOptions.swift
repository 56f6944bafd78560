#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The opt-in features a continuation checks when it is created, in one
/// atomic byte, so that creating one costs a single relaxed load for all of
/// them: listing in ``PendingContinuations`` (``PendingContinuations/isTracking``)
/// and the creation backtrace (``ContinuationMisuse/capturesCreationBacktraces``).
///
/// Until one is set in code, the environment decides, read once at the
/// first continuation: `CONCURRENCY_TOOLKIT_TRACK_CONTINUATIONS=1` and
/// `CONCURRENCY_TOOLKIT_CONTINUATION_BACKTRACES=1`.
@usableFromInline
enum ContinuationOptions {
    @inlinable static var tracking: UInt8 { 1 }
    @inlinable static var backtraces: UInt8 { 2 }
    /// Not options but the same byte's other reasons to leave the plain path
    /// (``creationFlags()``): a misuse-handler scope or a trace recording is
    /// active somewhere.
    @inlinable static var scoped: UInt8 { 4 }
    @inlinable static var traced: UInt8 { 8 }
    /// Not decided yet: the environment is read at the first continuation.
    static let undecided: UInt8 = 0x80

    /// A constant initial value lets the compiler initialize it statically:
    /// reading it costs no once-check.
    static let stored = Atomic<UInt8>(0x80)
    /// How many misuse-handler scopes are active anywhere, counted by
    /// `ContinuationMisuse.reporting` as it counts its own: statically
    /// initialized, so ``creationFlags()`` reads it with one relaxed load.
    /// Reading the router's count instead costs every continuation a
    /// `swift_once` call (the router is a lazily initialized global): that
    /// was most of what the default path gained after 0.1.0.
    static let activeScopes = Atomic<Int>(0)

    /// One relaxed load: what creating a continuation pays for every option.
    @usableFromInline
    static func current() -> UInt8 {
        let options = stored.load(ordering: .relaxed)
        return options & undecided == 0 ? options : decideFromEnvironment()
    }

    /// Everything creating a continuation must know in one call: the options,
    /// plus ``scoped`` and ``traced`` when a scope or a recording is active
    /// anywhere. Zero (almost always) means the plain path. Three relaxed
    /// loads of statically initialized atomics, and no other call: this runs
    /// for every continuation (Benchmarks/Scripts/continuation-cost.sh).
    @usableFromInline
    static func creationFlags() -> UInt8 {
        var flags = current()
        if activeScopes.load(ordering: .relaxed) != 0 { flags |= scoped }
        if Instrumentation.activeRecordings.load(ordering: .relaxed) != 0 { flags |= traced }
        return flags
    }

    static func isOn(_ option: UInt8) -> Bool { current() & option != 0 }

    /// Turns `option` on or off; this choice stands over the environment's.
    static func set(_ option: UInt8, _ on: Bool) {
        var options = current()
        while true {
            let wanted = on ? options | option : options & ~option
            let (exchanged, now) = stored.compareExchange(expected: options, desired: wanted, ordering: .relaxed)
            if exchanged { return }
            options = now
        }
    }

    @inline(never)
    private static func decideFromEnvironment() -> UInt8 {
        var wanted: UInt8 = 0
        if environmentAsks("CONCURRENCY_TOOLKIT_TRACK_CONTINUATIONS") { wanted |= tracking }
        if environmentAsks("CONCURRENCY_TOOLKIT_CONTINUATION_BACKTRACES") { wanted |= backtraces }
        // If an option was set meanwhile, that choice stands.
        let (exchanged, current) = stored.compareExchange(expected: undecided, desired: wanted, ordering: .relaxed)
        return exchanged ? wanted : current
    }

    private static func environmentAsks(_ name: String) -> Bool {
        guard let value = getenv(name) else { return false }
        return ["1", "true", "yes"].contains(String(cString: value).lowercased())
    }
}

extension ContinuationMisuse {
    /// Whether continuations created from now on capture the backtrace of
    /// the code that created them, so that a report names your frame through
    /// any number of wrappers (see ``creationBacktrace``). Off by default; the
    /// environment variable `CONCURRENCY_TOOLKIT_CONTINUATION_BACKTRACES=1`
    /// turns it on before the first continuation is created.
    ///
    /// ```swift
    /// #if DEBUG
    /// ContinuationMisuse.capturesCreationBacktraces = true
    /// #endif
    /// ```
    ///
    /// Cost: a walk of the frame pointers and the task's async contexts per
    /// continuation while on (Documentation/Performance.md, "Continuations");
    /// the default path pays one bit test of a byte it loads anyway. Symbols
    /// are looked up only when a report is made. Linux only; elsewhere the
    /// backtrace stays empty.
    public static var capturesCreationBacktraces: Bool {
        get { ContinuationOptions.isOn(ContinuationOptions.backtraces) }
        set { ContinuationOptions.set(ContinuationOptions.backtraces, newValue) }
    }
}
