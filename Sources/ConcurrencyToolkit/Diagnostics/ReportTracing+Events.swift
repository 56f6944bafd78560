extension ReportTracing {
    /// Reports become `event(report)` in the trace: into every active
    /// recording when the process asked for them, else into the recordings
    /// that the receiving scopes run in (each once).
    package static func events(_ event: @escaping @Sendable (Report) -> TraceEvent.Kind) -> Self {
        Self(
            recordingOfScope: { Instrumentation.currentRecorder },
            emit: { report, recordings in
                guard let recordings else {
                    Instrumentation.emitToEveryRecording(event(report))
                    return
                }
                var seen: Set<ObjectIdentifier> = []
                for case let recorder as TraceRecorder in recordings
                where seen.insert(ObjectIdentifier(recorder)).inserted {
                    recorder.emit(event(report))
                }
            })
    }
}
