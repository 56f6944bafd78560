/// A continuation that resumes its waiter exactly once, whatever the callback
/// API around it does.
///
/// Get one from ``withSafeThrowingContinuation(isolation:timeout:onCancel:function:fileID:line:_:)``
/// or ``withSafeContinuation(isolation:ifLeaked:function:fileID:line:_:)``. Unlike
/// `CheckedContinuation` it does not crash on a second resume and does not hang
/// the waiter when the callback never comes:
///
/// ```swift
/// func fetch(_ url: URL) async throws -> Data {
///     try await withSafeThrowingContinuation { continuation in
///         legacyClient.fetch(url) { data, error in
///             if let error { continuation.resume(throwing: error) }
///             else { continuation.resume(returning: data ?? Data()) }
///         }
///     }
/// }
/// ```
///
/// - The first `resume` wins and returns `true`. Any later one returns `false`,
///   is ignored, and produces a ``ContinuationMisuse`` of kind
///   ``ContinuationMisuse/Kind/resumedMoreThanOnce`` naming both sites.
/// - When the last copy is dropped without a resume, a ``ContinuationMisuse/Kind/leaked``
///   report is produced and the waiter is resumed: it throws
///   ``SafeContinuationError/leaked``, or returns the caller's fallback value.
/// - A resume that arrives after a timeout or cancellation already resumed
///   the waiter is expected and dropped without a report.
///
/// Reports go to the ``ContinuationMisuseHandler`` that was in effect where the
/// continuation was created. Copies may be sent to any thread and resumed from any thread.
/// Created inside ``withTraceRecording(isolation:_:)``, the wait is recorded
/// there: its site, how it ended, and any misuse.
public struct SafeContinuation<Success, Failure: Error>: Sendable {
    @usableFromInline let box: ContinuationStorage<Success, Failure>

    @inlinable init(_ box: ContinuationStorage<Success, Failure>) {
        self.box = box
    }

    /// Resumes the waiter with `value`, if nothing resumed it before.
    ///
    /// ```swift
    /// let bytes = try await withSafeThrowingContinuation { continuation in
    ///     session.load { bytes in continuation.resume(returning: bytes) }
    /// }
    /// ```
    ///
    /// - Returns: `true` if this call resumed the waiter; `false` if it had been
    ///   resumed already (reported as misuse) or was finished by a timeout or
    ///   cancellation (dropped silently). The value is discarded then.
    @inlinable @discardableResult
    public func resume(
        returning value: sending Success,
        function: String = #function, fileID: String = #fileID, line: Int = #line
    ) -> Bool {
        box.resume(with: .success(value), at: CallSite(function: function, fileID: fileID, line: line))
    }

    /// Resumes the waiter by throwing `error`, if nothing resumed it before.
    ///
    /// ```swift
    /// try await withSafeThrowingContinuation { continuation in
    ///     socket.onClose { continuation.resume() }
    ///     socket.onError { error in continuation.resume(throwing: error) }
    /// }
    /// ```
    ///
    /// - Returns: `true` if this call resumed the waiter; see ``resume(returning:function:fileID:line:)``.
    @inlinable @discardableResult
    public func resume(
        throwing error: Failure,
        function: String = #function, fileID: String = #fileID, line: Int = #line
    ) -> Bool {
        box.resume(with: .failure(error), at: CallSite(function: function, fileID: fileID, line: line))
    }

    /// Resumes the waiter with the value or error in `result`, if nothing resumed it before.
    ///
    /// ```swift
    /// let count = try await withSafeThrowingContinuation { continuation in
    ///     legacyAPI.run { (result: Result<Int, any Error>) in continuation.resume(with: result) }
    /// }
    /// ```
    ///
    /// - Returns: `true` if this call resumed the waiter; see ``resume(returning:function:fileID:line:)``.
    @inlinable @discardableResult
    public func resume(
        with result: sending Result<Success, Failure>,
        function: String = #function, fileID: String = #fileID, line: Int = #line
    ) -> Bool {
        box.resume(with: result, at: CallSite(function: function, fileID: fileID, line: line))
    }

    /// Where this continuation was created.
    ///
    /// ```swift
    /// let bytes: Data = try await withSafeThrowingContinuation { continuation in
    ///     logger.debug("waiting for callback at \(continuation.creationSite)")
    ///     session.load { bytes in continuation.resume(returning: bytes) }
    /// }
    /// ```
    public var creationSite: CallSite { box.site }
}

extension SafeContinuation where Success == Void {
    /// Resumes a `Void` waiter, if nothing resumed it before.
    ///
    /// ```swift
    /// await withSafeContinuation { continuation in
    ///     timer.schedule { continuation.resume() }
    /// }
    /// ```
    ///
    /// - Returns: `true` if this call resumed the waiter; see ``resume(returning:function:fileID:line:)``.
    @inlinable @discardableResult
    public func resume(function: String = #function, fileID: String = #fileID, line: Int = #line) -> Bool {
        box.resume(with: .success(()), at: CallSite(function: function, fileID: fileID, line: line))
    }
}

extension SafeContinuation where Failure == any Error {
    /// Resumes the waiter with the value or error in `result`, if nothing resumed it before.
    ///
    /// ```swift
    /// let response = try await withSafeThrowingContinuation { continuation in
    ///     client.send(request) { (result: Result<Response, ClientError>) in
    ///         continuation.resume(with: result)
    ///     }
    /// }
    /// ```
    ///
    /// - Returns: `true` if this call resumed the waiter; see ``resume(returning:function:fileID:line:)``.
    @inlinable @discardableResult
    public func resume<E: Error>(
        with result: sending Result<Success, E>,
        function: String = #function, fileID: String = #fileID, line: Int = #line
    ) -> Bool {
        let site = CallSite(function: function, fileID: fileID, line: line)
        switch consume result {
        case .success(let value): return box.resume(with: .success(value), at: site)
        case .failure(let error): return box.resume(with: .failure(error), at: site)
        }
    }
}
