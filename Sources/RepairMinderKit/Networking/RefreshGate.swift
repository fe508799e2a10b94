import Foundation

/// One refresh of a session at a time, shared by every caller that needs it, for any client
/// whose access tokens are renewed with a refresh token (`APIClient` for staff, `REKIClient`).
///
/// A caller that meets an expired or refused access token asks for credentials newer than
/// the ones it used: it gets the stored ones if someone already refreshed, the result of the
/// refresh in flight if there is one, or else starts the refresh. At most `maxPerMinute`
/// refreshes start per minute, so a server bug cannot make a client loop.
actor RefreshGate<Credentials: Equatable & Sendable> {
    private let maxPerMinute: Int
    private let now: @Sendable () -> Date
    private var inFlight: Task<Credentials, any Error>?
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
        if let inFlight { return try await inFlight.value }
        guard let current = try stored() else { throw APIError.sessionExpired(code: nil) }
        if current != stale { return current }
        let time = now()
        started = started.filter { time.timeIntervalSince($0) < 60 }
        guard started.count < maxPerMinute else { throw APIError.refreshLimitExceeded }
        started.append(time)
        let task = Task { try await refresh(current) }
        inFlight = task
        defer { inFlight = nil }
        return try await task.value
    }
}
