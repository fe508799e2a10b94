import Foundation

/// One refresh of a session at a time, shared by every caller that needs it, for any session
/// whose access tokens are renewed with a refresh token (`RefreshingSession`).
///
/// A caller that meets an expired or refused access token asks for credentials newer than
/// the ones it used: it gets the stored ones if someone already refreshed, the result of the
/// refresh in flight if there is one, or else starts the refresh. A waiting caller that is
/// cancelled stops waiting (the refresh goes on for the others). At most `maxPerMinute`
/// refreshes that reached the server start per minute, so a server bug cannot make a client
/// loop; one that failed for the network does not count.
actor RefreshGate<Credentials: Equatable & Sendable> {
    private let maxPerMinute: Int
    private let now: @Sendable () -> Date
    private var inFlight: Task<Credentials, any Error>?
    private var waiters: [UUID: CheckedContinuation<Credentials, any Error>] = [:]
    private var started: [Date] = []

    init(maxPerMinute: Int, now: @escaping @Sendable () -> Date) {
        self.maxPerMinute = maxPerMinute
        self.now = now
    }

    /// Credentials newer than `stale`. `stored` reads the credential store (nil: signed out);
    /// `refresh` exchanges the stored refresh token and saves what it gets.
    func fresh(
        replacing stale: Credentials, stored: @Sendable () throws -> Credentials?,
        refresh: @escaping @Sendable (Credentials) async throws -> Credentials
    ) async throws -> Credentials {
        if inFlight == nil {
            guard let current = try stored() else { throw APIError.sessionExpired(code: nil) }
            if current != stale { return current }
            let time = now()
            started = started.filter { time.timeIntervalSince($0) < 60 }
            guard started.count < maxPerMinute else { throw APIError.refreshLimitExceeded }
            started.append(time)
            inFlight = Task {
                let result = await Result { try await refresh(current) }
                self.finish(result, startedAt: time)
                return try result.get()
            }
        }
        return try await wait()
    }

    /// Waits for the refresh in flight, or for this task's cancellation.
    private func wait() async throws -> Credentials {
        let id = UUID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiters[id] = continuation
                }
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
    }

    /// How many callers wait for the refresh in flight (for tests that act once one joined it).
    var waiting: Int { waiters.count }

    private func cancelWaiter(_ id: UUID) {
        waiters.removeValue(forKey: id)?.resume(throwing: CancellationError())
    }

    private func finish(_ result: Result<Credentials, any Error>, startedAt time: Date) {
        inFlight = nil
        if case .failure(APIError.network) = result { started.removeAll { $0 == time } }
        let waiting = waiters
        waiters.removeAll()
        for continuation in waiting.values { continuation.resume(with: result) }
    }
}

extension Result where Failure == any Error {
    /// The result of an async throwing body.
    init(_ body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
