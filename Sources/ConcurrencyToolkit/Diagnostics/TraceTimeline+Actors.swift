extension TraceTimeline {
    /// One monitored actor in a trace: its queue depth and running jobs over
    /// time (the JSON's counter track, the band under the actor's SVG row),
    /// and what the summary's table says of it. Built from the events'
    /// `actorChange` (TraceEventKinds.swift); their jobs are also intervals,
    /// drawn on the actor's row like any work.
    struct ActorTrack: Equatable {
        /// The counters after one change.
        struct Sample: Equatable {
            var time: UInt64
            /// Jobs waiting.
            var depth: Int
            /// Jobs running: 0 or 1 (the actor is serial).
            var running: Int
        }

        var label: String
        /// In time order, one per change.
        var samples: [Sample] = []
        /// The wait of every job that started during the recording, in nanoseconds.
        var waits: [UInt64] = []
        /// Time spent running jobs during the recording: each job's own
        /// measure (`ran`), a job that began before the recording counted
        /// from its start, one still running counted until the end.
        var busy: UInt64 = 0

        /// Jobs that started during the recording.
        var jobs: Int { waits.count }
        /// The deepest the queue was in the recording.
        var maxDepth: Int { samples.map(\.depth).max() ?? 0 }

        /// Waits in the executor's own histogram, so the percentiles read
        /// here are the ones `MonitoredActorExecutor.statistics` reads.
        var waitHistogram: WaitHistogram {
            var histogram = WaitHistogram()
            for wait in waits { histogram.record(wait) }
            return histogram
        }
    }

    /// What one event changes in an actor's track (TraceEventKinds.swift says
    /// which events do): a new depth or running count, a job's wait when it
    /// started (begins a job), how long it ran when it returned (ends one).
    struct ActorChange {
        var actor: String
        var depth: Int? = nil
        var running: Int? = nil
        var waited: UInt64? = nil
        var ran: UInt64? = nil
    }

    /// The actors' tracks, in order of their first event. The events of one
    /// actor come from several threads and are appended out of order; their
    /// times are stamped under the executor's lock, strictly increasing, so
    /// sorting by time puts the changes back in the order they happened.
    static func actorTracks(_ events: [TraceEvent], end: UInt64) -> [ActorTrack] {
        struct Change {
            var time: UInt64
            var depth: Int?
            var running: Int?
        }
        var order: [String] = []
        var tracks: [String: ActorTrack] = [:]
        var changes: [String: [Change]] = [:]
        var running: [UInt64: (actor: String, start: UInt64)] = [:]
        func track(_ actor: String) {
            guard tracks[actor] == nil else { return }
            order.append(actor)
            tracks[actor] = ActorTrack(label: actor)
        }
        for event in events {
            guard let change = event.kind.actorChange else { continue }
            let actor = change.actor
            track(actor)
            changes[actor, default: []].append(Change(time: event.time, depth: change.depth, running: change.running))
            if let waited = change.waited {
                tracks[actor]?.waits.append(waited)
                running[event.id] = (actor, event.time)
            }
            if let ran = change.ran {
                let startedInRecording = running.removeValue(forKey: event.id) != nil && event.id != 0
                tracks[actor]?.busy &+= startedInRecording ? ran : min(ran, event.time)
            }
        }
        for (actor, start) in running.values { tracks[actor]?.busy &+= end > start ? end - start : 0 }
        return order.compactMap { actor in
            guard var track = tracks[actor] else { return nil }
            var (depth, busy) = (0, 0)
            // Stable: equal times keep the order they were recorded in.
            let sorted = (changes[actor] ?? []).enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            for (_, change) in sorted {
                depth = change.depth ?? depth
                busy = change.running ?? busy
                track.samples.append(ActorTrack.Sample(time: change.time, depth: depth, running: busy))
            }
            return track
        }
    }
}
