/// The limits of docs/API.md §7 on secrets and mail, counted in the database (`WindowCounters`)
/// so they hold across server instances: code emails per address, failed password logins per
/// account, wrong second factors per staff user and wrong emailed codes per address.
struct AbuseLimits: Sendable {
    let counters: WindowCounters
    let settings: ServerSettings
    let clock: ServerClock

    static let failureWindow: Double = 15 * 60
    static let emailWindow: Double = 3600
    static let guessWindow: Double = 3600

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

    /// A code guess counted against its budget before the code is compared; `refund` it when
    /// the code was right (or was never compared), so only wrong codes stay counted.
    struct Guess: Sendable {
        fileprivate let key: String?
    }

    /// Counts a second-factor try (emailed, TOTP or recovery code) of staff user `userId` across
    /// all their login challenges, or throws 429 for the rest of the hour once
    /// `secondFactorFailureLimit` wrong codes were counted. A right password does not reset it.
    func admitSecondFactorGuess(userId: String) async throws -> Guess {
        try await admitGuess("second-factor:\(userId)", limit: settings.secondFactorFailureLimit)
    }

    /// Counts a try at an emailed code sent to `email` across every code it was sent (a new code
    /// does not reset it), or throws 429 for the rest of the hour once `wrongCodeLimit` wrong
    /// codes were counted.
    func admitEmailedCodeGuess(email: String) async throws -> Guess {
        try await admitGuess("wrong-codes:\(email)", limit: settings.wrongCodeLimit)
    }

    /// Takes back a guess that was not wrong.
    func refund(_ guess: Guess) async throws {
        guard let key = guess.key else { return }
        try await counters.refund(key)
    }

    private func admitGuess(_ key: String, limit: Int) async throws -> Guess {
        guard limit > 0 else { return Guess(key: nil) }
        if let wait = try await counters.admit(key, .init(limit: limit, window: Self.guessWindow), now: clock.now()) {
            throw APIError.rateLimited(retryAfter: wait)
        }
        return Guess(key: key)
    }
}
