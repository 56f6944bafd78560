extension Instrumentation {
    /// Every recording running now, for events that belong to no task: a
    /// stall report, made on the detector's watchdog thread, and the jobs of
    /// a monitored actor created outside any recording go into each.
    /// `running` counts each recorder's `record` calls in progress (one
    /// recorder may run several at once, nested or side by side), so a
    /// recorder is in it once; `list` is its recorders, kept so that reading
    /// them copies an array (a retain) rather than building one per event.
    static let activeRecorders = Lock<
        (running: [ObjectIdentifier: (recorder: TraceRecorder, calls: Int)], list: [TraceRecorder])
    >(([:], []))

    /// Counts one more `record` call of `recorder` in progress.
    static func registerActive(_ recorder: TraceRecorder) {
        activeRecorders.withLock { state in
            let key = ObjectIdentifier(recorder)
            if let entry = state.running[key] {
                state.running[key] = (recorder, entry.calls + 1)
            } else {
                state.running[key] = (recorder, 1)
                state.list.append(recorder)
            }
        }
    }

    /// Counts one `record` call of `recorder` ended; after its last, it leaves the list.
    static func unregisterActive(_ recorder: TraceRecorder) {
        activeRecorders.withLock { state in
            let key = ObjectIdentifier(recorder)
            guard let entry = state.running[key] else { return }
            if entry.calls > 1 {
                state.running[key] = (recorder, entry.calls - 1)
            } else {
                state.running[key] = nil
                state.list.removeAll { $0 === recorder }
            }
        }
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
