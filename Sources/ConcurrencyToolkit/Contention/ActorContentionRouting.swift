/// Where ``ActorContention`` reports go (interim, until the reporting floor
/// carries them): the scopes active now, else the process-wide default, a
/// rate-limited `ACTOR CONTENTION:` block on standard error.
enum ActorContentionRouting {
    struct Scope {
        let report: @Sendable (ActorContention) -> Void
        let minimumWait: Duration
    }

    static let scopes = Lock<(next: UInt64, active: [(id: UInt64, scope: Scope)])>((0, []))

    static let standardErrorLimiter = ReportRateLimiter(summaryPrefix: "ACTOR CONTENTION: ")

    static func withScope<Result>(
        _ report: @escaping @Sendable (ActorContention) -> Void, minimumWait: Duration,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        let id = scopes.withLock { scopes in
            scopes.next += 1
            scopes.active.append((scopes.next, Scope(report: report, minimumWait: minimumWait)))
            return scopes.next
        }
        defer { scopes.withLock { $0.active.removeAll { $0.id == id } } }
        return try await operation()
    }

    static func deliver(_ contention: ActorContention, processThreshold: Duration?) {
        let active = scopes.withLock { $0.active.map(\.scope) }
        if active.isEmpty {
            guard let processThreshold, contention.longestWait >= processThreshold else { return }
            let holder = contention.holderBacktrace.first ?? "no backtrace"
            standardErrorLimiter.report(
                key: "\(contention.label) in \(holder)", line: "ACTOR CONTENTION: \(contention)\n")
            return
        }
        for scope in active where contention.longestWait >= scope.minimumWait {
            scope.report(contention)
        }
    }
}
