// Stand-in declarations for the fragments that .ci/snippets type-checks
// (code blocks that show no `import`): the app code a fragment calls but does
// not show (a callback API, a model, a logger, a file). Compiled beside every
// fragment, never run: a value is a `fatalError()` getter of the type the
// fragment expects. Nothing here is toolkit API; a fragment that declares a
// name itself shadows the stand-in. A complete sample (one that shows an
// `import`) never sees these: it compiles as copied.
import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Dispatch
import Foundation
import Testing

// MARK: Values a snippet reads

public var path: String { fatalError() }
public var url: URL { fatalError() }
public var folder: URL { fatalError() }
public var label: String { fatalError() }
public var cores: Int { fatalError() }
public var laneIndex: Int { fatalError() }
public var threw: Bool { fatalError() }
public var kind: ContinuationMisuse.Kind { fatalError() }
public var site: CallSite { fatalError() }
public var fd: Int32 { fatalError() }
public var pipeReadEnd: Int32 { fatalError() }
public var pipeWriteEnd: Int32 { fatalError() }
public var bytesWritten: Int { fatalError() }
public var error: SafeContinuationError { fatalError() }
public var misuse: ContinuationMisuse { fatalError() }
public var misuses: [ContinuationMisuse] { fatalError() }
public var snapshot: PendingContinuations.Snapshot { fatalError() }
public var trace: Trace { fatalError() }
public var events: [TraceEvent] { fatalError() }
public var threads: [TraceThread] { fatalError() }
public var recorder: TraceRecorder { fatalError() }
public var context: BlockingExecutor.JobContext { fatalError() }
public var io: BlockingExecutor { fatalError() }
public var executor: BlockingExecutor { fatalError() }
public var progress: ThrottledProgress<Int> { fatalError() }
public var perFile: KeyedThrottledProgress<String, Int> { fatalError() }
public var clock: ManualClock { fatalError() }
public var queue: DispatchQueue { fatalError() }
public var chunks: [Chunk] { fatalError() }
public var files: [File] { fatalError() }
public var segments: [Segment] { fatalError() }
public var document: Document { fatalError() }
public var request: Request { fatalError() }
public var test: Test { fatalError() }

public struct Chunk: Sendable { public var offset: Int; public var data: Data; public var count: Int { data.count } }
public struct Segment: Sendable {}
public struct Document: Sendable {}
public struct Config: Sendable {}
public struct File: Sendable { public var path: String; public var name: String; public var size: Int; public var url: URL }
public struct Message: Sendable {}
public struct Frame: Sendable { public static let blank = Frame() }
public struct Image: Sendable { public init(decoding bytes: [UInt8]) throws {} }
public struct User: Sendable { public var avatarURL: URL }
public struct Response: Sendable {}
public struct ClientError: Error {}
public struct SubprocessError: Error { public init(underlying: any Error) {} }

// MARK: Blocking calls and app functions

public func readWholeFile(_ path: String) throws -> [UInt8] { fatalError() }
public func blockingRead(_ path: String) -> Data { fatalError() }
public func parseConfig(atPath path: String) throws -> Config { fatalError() }
public func fileSize(atPath path: String) throws -> Int { fatalError() }
public nonisolated func hashFile(at path: String) async -> String { fatalError() }
public func save(_ document: Document) throws {}
public func save(_ data: Data, to url: URL) async {}
public func compress(_ file: File) throws {}
public func compress(_ segment: Segment, isCancelled: () -> Bool) -> Data { fatalError() }
public func write(_ chunk: Chunk) {}
public func consume(_ bytes: ArraySlice<UInt8>) {}
@discardableResult public func squeeze(_ file: File) async throws -> Int { 0 }
public func squeeze(_ file: File, progress: @Sendable (Int) -> Void) async throws {}
public func squeeze(_ files: [File], progress: ThrottledProgress<Int>) async throws {}
public func deflateLoop(_ body: (Int) -> Void) {}
public func onCancel(_ body: @escaping @Sendable () -> Void) {}
public func syncEverything() async throws {}
public func fetch() async throws {}
public func retry() {}
public func reportBug() {}
public func reportBug(_ error: any Error) {}
public func showDone() {}
public func legacyFetch(_ done: @escaping @Sendable (Data) -> Void) {}
public func legacyCompress(_ name: String, _ done: @escaping @Sendable (Int) -> Void) {}

// MARK: Objects a snippet talks to

public final class Logger: Sendable {
    public func debug(_ message: String) {}
    public func info(_ message: String) {}
    public func notice(_ message: String) {}
    public func warning(_ message: String) {}
    public func error(_ message: String) {}
    public func flush(_ done: @escaping @Sendable () -> Void) {}
}
public let logger = Logger()

public final class Metrics: Sendable {
    public func increment(_ name: String) {}
    public func gauge(_ name: String, _ value: Int) {}
}
public let metrics = Metrics()

public final class CrashReporter: Sendable {
    public func recordNonFatal(_ message: String) {}
    public func record(nonFatal message: String) {}
}
public let crashReporter = CrashReporter()

public final class Request: Sendable {
    public func start(_ done: @escaping @Sendable (Result<Data, any Error>) -> Void) {}
    public func start(_ done: @escaping @Sendable (Data?, (any Error)?) -> Void) {}
    public func cancel() {}
}

public final class LegacyDownloader: Sendable {
    public typealias Request = ConcurrencyToolkit_Snippets_Request
    public func fetch(_ url: URL) async throws -> Data { fatalError() }
    public func makeRequest(_ url: URL) -> Request { fatalError() }
}
public typealias ConcurrencyToolkit_Snippets_Request = Request
public extension Request { convenience init(_ url: URL) { fatalError() } }
public let downloader = LegacyDownloader()

public final class Client: Sendable {
    public func send(_ request: Request, _ done: @escaping @Sendable (Result<Response, ClientError>) -> Void) {}
    public func send(_ request: Request, _ done: @escaping @Sendable (Result<Data, any Error>) -> Void) {}
    public func download(_ url: URL) async throws -> Data { fatalError() }
}
public let client = Client()

public final class Squeezer: Sendable {
    public func compress(_ folder: URL) async throws {}
    public func run() async {}
}
public let squeezer = Squeezer()

public final class Importer: Sendable { public func importAll() async throws -> Int { 0 } }
public let importer = Importer()

public final class Compressor: @unchecked Sendable {
    public var onChunk: @Sendable (Int) -> Void = { _ in }
    public func compress(_ file: File) throws {}
    public func run() async throws {}
}
public let compressor = Compressor()

public final class LegacyReader: Sendable {
    public func read(_ path: String, _ done: @escaping @Sendable ([UInt8], (any Error)?) -> Void) {}
}
public let legacyReader = LegacyReader()

public final class LegacyAPI: Sendable { public func run(_ done: @escaping @Sendable (Result<Int, any Error>) -> Void) {} }
public let legacyAPI = LegacyAPI()

public final class Session: Sendable { public func load(_ done: @escaping @Sendable (Data) -> Void) {} }
public let session = Session()

public final class Socket: Sendable {
    public func onError(_ handler: @escaping @Sendable (any Error) -> Void) {}
    public func onClose(_ handler: @escaping @Sendable () -> Void) {}
}
public let socket = Socket()

public final class Timer: Sendable { public func schedule(_ body: @escaping @Sendable () -> Void) {} }
public let timer = Timer()

public final class Inbox: Sendable { public func onNextMessage(_ handler: @escaping @Sendable (Message) -> Void) {} }
public let inbox = Inbox()

public final class DisplayLink: Sendable { public func onNextFrame(_ handler: @escaping @Sendable (Frame) -> Void) {} }
public let displayLink = DisplayLink()

public final class ImageCache: Sendable { public func load(_ url: URL, _ done: @escaping @Sendable (Image) -> Void) {} }
public let imageCache = ImageCache()

public final class Channel: Sendable {
    public func read(offset: Int, length: Int, queue: DispatchQueue,
              ioHandler: @escaping @Sendable (Bool, Data?, Int32) -> Void) {}
}
public let channel = Channel()

public final class ChunkSource: Sendable { public func nextChunk() throws -> Chunk? { nil } }
public let source = ChunkSource()
public final class ChunkDestination: Sendable { public func write(_ chunk: Chunk) throws {} }
public let destination = ChunkDestination()

// MARK: Main-actor state a handler updates

public struct FileProgress { public var bytesDone = 0 }
@MainActor public final class Model {
    public var bytesDone = 0
    public var totalSize = 0
    public var itemsDone = 0
    public var files: [String: FileProgress] = [:]
}
@MainActor public let model = Model()
@MainActor public final class ProgressBar { public var value = 0.0 }
@MainActor public let progressBar = ProgressBar()
@MainActor public final class StatusLine { public var text = "" }
@MainActor public let statusLine = StatusLine()
@MainActor public final class Table { public func update<Key, Value>(_ changed: [Key: Value]) {} }
@MainActor public let table = Table()
@MainActor public var console: [String] = []

// MARK: The WWDC22 example app (Documentation/SplittingStateAcrossActors.md)

public struct FileStatus: Sendable { public var url: URL; public var progress: Double }
public enum CompressionUtils {
    public static func compressDataInFile(at url: URL, progress: (Double) -> Void) -> Data { fatalError() }
}
#if !canImport(Combine)
/// Combine is Apple-only; the "Before" code of the WWDC session uses it.
public protocol ObservableObject: AnyObject {}
@propertyWrapper public struct Published<Value> {
    public var wrappedValue: Value
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
}
#endif

public final class LegacyClient: Sendable {
    public func fetch(_ url: URL, _ done: @escaping @Sendable (Data?, (any Error)?) -> Void) {}
}
public let legacyClient = LegacyClient()
public var log: BatchingReporter<String> { fatalError() }
public var width: Int { fatalError() }
public var box: AnyObject { fatalError() }

// MARK: Internal-API examples (Sources/ConcurrencyToolkit/Support)

public struct Waiter: Sendable { public func resume(throwing error: any Error) {} }
public struct Registration: Sendable {}

// MARK: An actor with its own thread (BlockingSerialExecutor)

public actor LogFile {
    public nonisolated let executor = BlockingSerialExecutor(label: "log-file")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    public func append(_ line: String) {}
    public func drain() {}
    public func flush() {}
}
public let logFile = LogFile()
public var start: ManualClock.Instant { fatalError() }

// MARK: Stall detection (Documentation/StallDetection.md, Sources/…/Stalls)

public var stall: ConcurrencyStall { fatalError() }
public var stalls: [ConcurrencyStall] { fatalError() }
public var thread: ConcurrencyStall.BlockedThread { fatalError() }
public var fixtures: URL { fatalError() }
public func work() async {}
public func runServer() async throws {}
public func importLibrary() async throws {}
public extension Metrics {
    func record(_ name: String, _ value: Duration, tags: [String: String] = [:]) {}
}
public extension Importer {
    func importLibrary(at folder: URL) async throws -> Int { 0 }
    func run() async throws -> Int { 0 }
}
public final class Gallery: Sendable { public func loadThumbnails() async {} }
public let gallery = Gallery()

// MARK: Actor contention (issue 28)
public actor MonitoredCache {
    public nonisolated let executor = MonitoredActorExecutor(label: "ImageCache")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    public func image(for url: URL) -> Image? { nil }
    public func warmUp(from folder: URL) async throws -> Int { 0 }
}
public let cache = MonitoredCache()

// MARK: Schedule exploration (issue 41)
public actor Account {
    public init(balance: Int = 100) {}
    public var balance: Int { 0 }
    public func withdraw(_ amount: Int) async {}
}
public struct Overdraw: Error { public init() {} }
public func body() async throws {}
public func withdrawTwiceAtOnce() async throws {}
public func transferTwiceAtOnce() async throws {}
public func loadTwiceAtOnce() async throws {}
public var exploration: ScheduleExploration { fatalError() }
public var failure: ScheduleFailure { fatalError() }
public var deadlock: ScheduleDeadlock { fatalError() }
public var tooLong: ScheduleTooLong { fatalError() }
