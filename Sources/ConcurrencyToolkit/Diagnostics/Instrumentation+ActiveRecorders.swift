extension Instrumentation {
    /// Every recording running now, for events that belong to no task: a
    /// stall report, made on the detector's watchdog thread, and the jobs of
    /// a monitored actor created outside any recording go into each. `list`
    /// is `recorders`' distinct values (a recorder running two `record` calls
    /// at once is registered twice and must get an event once), kept so that
    /// reading them copies an array (a retain) rather than building one per event.
    static let activeRecorders = Lock<(next: UInt64, recorders: [UInt64: TraceRecorder], list: [TraceRecorder])>(
        (0, [:], []))

    /// Adds `recorder` while one of its `record` calls runs; returns the key to remove it.
    static func registerActive(_ recorder: TraceRecorder) -> UInt64 {
        activeRecorders.withLock { state in
            state.next += 1
            state.recorders[state.next] = recorder
            state.list = distinct(state.recorders.values)
            return state.next
        }
    }

    static func unregisterActive(_ key: UInt64) {
        activeRecorders.withLock { state in
            _ = state.recorders.removeValue(forKey: key)
            state.list = distinct(state.recorders.values)
        }
    }

    private static func distinct(_ recorders: some Sequence<TraceRecorder>) -> [TraceRecorder] {
        var seen = Set<ObjectIdentifier>()
        return recorders.filter { seen.insert(ObjectIdentifier($0)).inserted }
    }

    /// Records `kind` in every active recording (after unlocking).
    static func emitToEveryRecording(_ kind: TraceEvent.Kind) {
        appendToEveryRecording(kind, id: 0)
    }

    /// Records `kind` with `id`, stamped `now` (by default, now), in every
    /// active recording (after unlocking). A recording that ends meanwhile
    /// drops it without counting it as one of its late events.
    static func appendToEveryRecording(_ kind: TraceEvent.Kind, id: UInt64, at now: UInt64 = MonotonicClock.now) {
        guard activeRecordings.load(ordering: .relaxed) != 0 else { return }
        let recorders = activeRecorders.withLock { $0.list }
        for recorder in recorders { recorder.append(kind, id: id, at: now, countedIfLate: false) }
    }
}
