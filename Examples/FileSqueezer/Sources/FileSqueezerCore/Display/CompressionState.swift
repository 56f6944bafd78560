import Observation

/// Everything a display shows about a run, owned by the main actor.
///
/// It is the view model: the terminal display reads it here, and on Apple
/// platforms a SwiftUI view binds to the same type (`@Observable`):
///
/// ```swift
/// struct SqueezeView: View {
///     let state: CompressionState
///     var body: some View {
///         ProgressView(value: state.fractionDone)
///         ForEach(state.filesInFlight, id: \.index) { file in
///             ProgressView(file.name, value: file.fraction)
///         }
///     }
/// }
/// ```
///
/// Compression never runs here: workers report through throttled, batched
/// hops, so the main actor is busy for microseconds per update. After
/// cancellation the state keeps what finished; nothing updates it after the
/// run returns.
@Observable @MainActor
final class CompressionState {
    /// A file being compressed right now.
    ///
    /// ```swift
    /// for file in state.filesInFlight { print(file.name, Int(file.fraction * 100), "%") }
    /// ```
    struct FileInFlight: Sendable, Equatable {
        let index: Int
        let name: String
        let size: Int64
        var bytesDone: Int64
        var fraction: Double { size == 0 ? 1 : Double(bytesDone) / Double(size) }
    }

    private(set) var totalFiles = 0
    private(set) var totalBytes: Int64 = 0
    private(set) var finishedFiles = 0
    private(set) var failedFiles = 0
    /// Bytes of the originals read so far, finished files and files in flight.
    private(set) var bytesDone: Int64 = 0
    private(set) var inFlight: [Int: FileInFlight] = [:]
    private(set) var startedAt = ContinuousClock.now

    @ObservationIgnored private var plans: [FilePlan] = []
    @ObservationIgnored private var finished: Set<Int> = []

    init() {}

    /// Files in flight, in the order they were planned.
    var filesInFlight: [FileInFlight] { inFlight.values.sorted { $0.index < $1.index } }

    var fractionDone: Double { totalBytes == 0 ? 1 : Double(bytesDone) / Double(totalBytes) }

    func start(_ plans: [FilePlan]) {
        self.plans = plans
        totalFiles = plans.count
        totalBytes = plans.reduce(0) { $0 + $1.size }
        startedAt = .now
    }

    /// Applies the newest read position of some files (one hop for many files).
    /// A late position for a file already finished is ignored.
    func update(bytesRead: [Int: Int64]) {
        for (index, bytes) in bytesRead where plans.indices.contains(index) && !finished.contains(index) {
            let plan = plans[index]
            inFlight[index, default: FileInFlight(index: index, name: plan.relativePath, size: plan.size, bytesDone: 0)]
                .bytesDone = bytes
        }
    }

    /// Applies the newest overall figure: bytes read, plus the unread rest
    /// of files that failed.
    func update(overallBytes: Int64) {
        bytesDone = overallBytes
    }

    func finish(_ index: Int, _ outcome: FileOutcome) {
        finished.insert(index)
        inFlight[index] = nil
        if outcome.status == .compressed { finishedFiles += 1 }
        if outcome.status == .failed { failedFiles += 1 }
    }
}
