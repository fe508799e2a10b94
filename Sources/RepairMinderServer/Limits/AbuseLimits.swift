/// The limits of docs/API.md §7 on secrets and mail, counted in the database (`WindowCounters`)
/// so they hold across server instances: code emails per address, and failed password logins per account.
struct AbuseLimits: Sendable {
    let counters: WindowCounters
    let settings: ServerSettings
    let clock: ServerClock

    static let failureWindow: Double = 15 * 60
    static let emailWindow: Double = 3600

    /// Admits one code email to `email` and counts it, or throws 429 with `Retry-After`: at
    /// most `codeEmailsPerHour` an hour, at least `codeResendInterval` seconds apart.
    func admitCodeEmail(to email: String) async throws {
        let perHour = settings.codeEmailsPerHour, interval = Double(settings.codeResendInterval)
        guard perHour > 0 || interval > 0 else { return }
        let rule = WindowCounters.Rule(limit: perHour > 0 ? perHour : Int.max, window: Self.emailWindow, spacing: interval)
        if let wait = try await counters.admit("code-emails:\(email)", rule, now: clock.now()) {
            throw APIError.rateLimited(retryAfter: wait)
        }
    }

    /// Counts a secret-guessing attempt for `key` before it is checked, or throws 429 while its
    /// failure budget for the window is used up. Keys: the email for passwords (so unknown
    /// emails behave the same), `totp:<user id>` for authenticator codes outside a login.
    /// Counting first keeps the limit exact under concurrent attempts; a correct secret then
    /// clears the count (`clearLoginFailures`), so only failures remain counted.
    func admitLoginAttempt(for key: String) async throws {
        let limit = settings.loginFailureLimit
        guard limit > 0 else { return }
        if let wait = try await counters.admit("login-failures:\(key)", .init(limit: limit, window: Self.failureWindow), now: clock.now()) {
            throw APIError.rateLimited(retryAfter: wait)
        }
    }

    /// A correct secret starts the key's budget afresh.
    func clearLoginFailures(for key: String) async throws {
        guard settings.loginFailureLimit > 0 else { return }
        try await counters.reset("login-failures:\(key)")
    }
}
