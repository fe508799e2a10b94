import RepairMinderModels

/// The limits of docs/API.md §7, counted in the database (`WindowCounters`) so they hold
/// across server instances. Routes declare which they spend (`RouteBudget`); `RouteMounter`
/// spends them through a `BudgetLedger` and settles each counted try from the answer here, so
/// how a kind counts is written once, whichever route spends it.
struct AbuseLimits: Sendable {
    let counters: WindowCounters
    let settings: ServerSettings
    let clock: ServerClock

    static let failureWindow: Double = 15 * 60
    static let emailWindow: Double = 3600
    static let guessWindow: Double = 3600
    static let ipWindow: Double = 60

    /// Code emails a login challenge may send while it lives.
    static let emailsPerChallenge = 5

    /// One counted try: the counter it went to, its kind, and whether that counter is the
    /// key-wide ceiling over every network's count.
    struct Spent: Sendable {
        let kind: RouteBudget.Kind
        let counter: String
        var isCeiling = false
    }

    /// A shop's invitation mails are counted per day.
    static let invitationWindow: Double = 86_400
    /// Portal invitations a shop sends a day (docs/API.md §7): enough to invite a day's
    /// customers one by one, too few to use the shop's sending name for spam.
    static let portalInvitesPerShopPerDay = 200

    /// The rule `kind` is counted by, or nil when the settings turn it off.
    func rule(for kind: RouteBudget.Kind) -> WindowCounters.Rule? {
        switch kind {
        case .clientIP:
            settings.ipRateLimit > 0 ? .init(limit: settings.ipRateLimit, window: Self.ipWindow) : nil
        case .failedSecrets:
            settings.loginFailureLimit > 0 ? .init(limit: settings.loginFailureLimit, window: Self.failureWindow) : nil
        case .codeEmails:
            settings.codeEmailsPerHour > 0 || settings.codeResendInterval > 0
                ? .init(
                    limit: settings.codeEmailsPerHour > 0 ? settings.codeEmailsPerHour : Int.max, window: Self.emailWindow,
                    spacing: Double(settings.codeResendInterval))
                : nil
        case .challengeEmails:
            // The challenge keeps its own spacing (`LoginChallengeStore.storeCode`).
            settings.codeEmailsPerHour > 0
                ? .init(limit: Self.emailsPerChallenge, window: min(Double(settings.loginChallengeTTL), WindowCounters.longestWindow))
                : nil
        case .wrongCodes:
            settings.wrongCodeLimit > 0 ? .init(limit: settings.wrongCodeLimit, window: Self.guessWindow) : nil
        case .secondFactors:
            settings.secondFactorFailureLimit > 0 ? .init(limit: settings.secondFactorFailureLimit, window: Self.guessWindow) : nil
        case .passkeyEnrolments:
            settings.passkeyEnrolmentsPerMinute > 0 ? .init(limit: settings.passkeyEnrolmentsPerMinute, window: 60) : nil
        case .invitations:
            settings.invitationsPerDay > 0 ? .init(limit: settings.invitationsPerDay, window: Self.invitationWindow) : nil
        case .portalInvitesPerShop:
            .init(limit: Self.portalInvitesPerShopPerDay, window: Self.invitationWindow)
        case .portalInvitesPerClient:
            .init(limit: 1, window: 60)
        }
    }

    /// Counts one try of `kind` for `key`, or throws 429 with `Retry-After` while its budget is
    /// used up; empty when the limit is off. Counting before the check keeps a limit exact
    /// under concurrent tries.
    ///
    /// With `network` (the client's /24 or /64), the try counts for `key` from that network
    /// under the kind's rule, and for `key` from anywhere under a ceiling
    /// `RouteBudget.networkCeilingFactor` times higher without spacing: one network cannot use
    /// up the owner's budget, nor keep the owner waiting.
    func spend(_ kind: RouteBudget.Kind, key: String, network: String? = nil) async throws -> [Spent] {
        guard let rule = rule(for: kind) else { return [] }
        let counter = Self.prefix(of: kind) + key
        guard let network else {
            try await admit(counter, rule)
            return [Spent(kind: kind, counter: counter)]
        }
        let fromNetwork = Spent(kind: kind, counter: "\(counter)|net:\(network)")
        try await admit(fromNetwork.counter, rule)
        let ceiling = WindowCounters.Rule(
            limit: rule.limit > Int.max / RouteBudget.networkCeilingFactor ? Int.max : rule.limit * RouteBudget.networkCeilingFactor,
            window: rule.window)
        do {
            try await admit(counter, ceiling)
        } catch {
            try? await counters.refund(fromNetwork.counter)
            throw error
        }
        return [fromNetwork, Spent(kind: kind, counter: counter, isCeiling: true)]
    }

    private func admit(_ counter: String, _ rule: WindowCounters.Rule) async throws {
        if let wait = try await counters.admit(counter, rule, now: clock.now()) { throw APIError.rateLimited(retryAfter: wait) }
    }

    /// What the answer does to a counted try (see `RouteBudget.Kind`): `error` is nil for a
    /// success. An unexpected failure (a 5xx) leaves every try counted.
    func settle(_ spent: Spent, after error: (any Error)?) async throws {
        var settlement = Self.settlement(of: spent.kind, after: error)
        // A success starts its own network's count afresh, not everyone's: the try is only taken back.
        if spent.isCeiling, settlement == .startAfresh { settlement = .refund }
        switch settlement {
        case .keep: break
        case .refund: try await counters.refund(spent.counter)
        case .startAfresh: try await counters.reset(spent.counter)
        }
    }

    enum Settlement: Equatable { case keep, refund, startAfresh }

    static func settlement(of kind: RouteBudget.Kind, after error: (any Error)?) -> Settlement {
        let refusal = (error as? APIError).flatMap { $0.status.code < 500 ? $0.code : nil }
        switch kind {
        case .clientIP, .codeEmails, .challengeEmails, .passkeyEnrolments:
            return .keep
        case .invitations, .portalInvitesPerShop, .portalInvitesPerClient:
            // Counted for a mail queued; a refusal before it (a pending invitation, bad input)
            // sent nothing.
            return error == nil ? .keep : .refund
        case .failedSecrets:
            if error == nil { return .startAfresh }
            guard let refusal else { return .keep }
            return wrongSecret.contains(refusal) ? .keep : .refund
        case .wrongCodes, .secondFactors:
            if error == nil { return .refund }
            guard let refusal else { return .keep }
            return wrongCode.contains(refusal) ? .keep : .refund
        }
    }

    /// The answers that say a password or authenticator code was wrong.
    static let wrongSecret: Set<ErrorCode> = [.invalidCredentials, .invalidCode]
    /// The answers that say a code was wrong, or that it was wrong once too often.
    static let wrongCode: Set<ErrorCode> = [.invalidCode, .codeExpired, .tooManyAttempts, .passkeyInvalid]

    /// Each kind's counters in `request_windows`.
    static func prefix(of kind: RouteBudget.Kind) -> String {
        switch kind {
        case .clientIP: "ip:"
        case .failedSecrets: "login-failures:"
        case .codeEmails: "code-emails:"
        case .challengeEmails: "challenge-emails:"
        case .wrongCodes: "wrong-codes:"
        case .secondFactors: "second-factor:"
        case .passkeyEnrolments: "passkey-enrolments:"
        case .invitations: "invitations:"
        case .portalInvitesPerShop: "portal-invites-shop:"
        case .portalInvitesPerClient: "portal-invites-client:"
        }
    }
}
