import SQLKit

/// The limits of docs/API.md §7 that must hold across server instances, so they are counted in
/// the database: code emails per address, and failed password logins per account.
struct AbuseLimits: Sendable {
    let database: Database
    let settings: ServerSettings
    let clock: ServerClock

    static let failureWindow: Double = 15 * 60
    static let emailWindow: Double = 3600

    /// Admits one code email to `email` and records it, or throws 429 with `Retry-After`.
    /// Checking and recording happen in one transaction serialised on the address (on every
    /// instance), so concurrent requests cannot both pass.
    func admitCodeEmail(to email: String) async throws {
        let now = clock.now()
        let interval = Double(settings.codeResendInterval)
        let perHour = settings.codeEmailsPerHour
        let wait: Double? = try await database.transaction(serializedOn: "code-emails:\(email)") { db in
            try await db.raw("DELETE FROM code_emails WHERE sent_at <= \(bind: now - Self.emailWindow)").run()
            let sent = try await db.raw(
                "SELECT sent_at FROM code_emails WHERE email = \(bind: email) ORDER BY sent_at ASC"
            ).all(decodingColumn: "sent_at", as: Double.self)
            if interval > 0, let last = sent.last, now - last < interval { return last + interval - now }
            if perHour > 0, sent.count >= perHour, let oldest = sent.first { return oldest + Self.emailWindow - now }
            try await db.raw("INSERT INTO code_emails (email, sent_at) VALUES (\(bind: email), \(bind: now))").run()
            return nil
        }
        if let wait { throw APIError.rateLimited(retryAfter: wait) }
    }

    /// Counts a secret-guessing attempt for `key` before it is checked, or throws 429 while its
    /// failure budget for the window is used up. Keys: the email for passwords (so unknown
    /// emails behave the same), `totp:<user id>` for authenticator codes outside a login. Counting first, in one transaction
    /// serialised on the key, keeps the limit exact under concurrent attempts; a correct password then
    /// clears the count (`clearLoginFailures`), so only failures remain counted.
    func admitLoginAttempt(for key: String) async throws {
        let email = key
        let limit = settings.loginFailureLimit
        guard limit > 0 else { return }
        let now = clock.now()
        let wait: Double? = try await database.transaction(serializedOn: "login-failures:\(email)") { db in
            try await db.raw("DELETE FROM login_failures WHERE failed_at <= \(bind: now - Self.failureWindow)").run()
            let failures = try await db.raw(
                "SELECT failed_at FROM login_failures WHERE email = \(bind: email) ORDER BY failed_at ASC"
            ).all(decodingColumn: "failed_at", as: Double.self)
            if failures.count >= limit, let oldest = failures.first { return oldest + Self.failureWindow - now }
            try await db.raw("INSERT INTO login_failures (email, failed_at) VALUES (\(bind: email), \(bind: now))").run()
            return nil
        }
        if let wait { throw APIError.rateLimited(retryAfter: wait) }
    }

    /// A correct secret starts the key's budget afresh.
    func clearLoginFailures(for email: String) async throws {
        guard settings.loginFailureLimit > 0 else { return }
        try await database.withConnection { db in
            try await db.raw("DELETE FROM login_failures WHERE email = \(bind: email)").run()
        }
    }
}
