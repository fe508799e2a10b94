import RepairMinderModels

/// A shop's security policy as the server applies it (docs/API.md §13), read from its
/// `companies` row by `SecurityPolicyStore`.
struct ShopPolicy: Sendable, Equatable {
    var requiredFactor: RequiredFactor
    var allowMagicLink: Bool
    var enrolmentGraceDays: Int
    /// nil: the server's own lifetime.
    var sessionMaxWebDays: Int?
    var sessionMaxMobileDays: Int?
    /// When a factor became required (`none` to either): where the grace period starts for
    /// staff created before. Kept when the requirement moves between the two factors.
    var requiredFactorSince: Double?
    /// When a passkey became required: where the grace period starts for staff who met the
    /// looser rule with an authenticator app.
    var passkeyRequiredSince: Double?
    var updatedAt: Double?
    /// The admin who changed it last.
    var updatedBy: String?

    static let day: Double = 86_400

    /// Every shop's policy until an admin changes it: nothing more than §2 and §11 ask.
    static let defaults = ShopPolicy(
        requiredFactor: .notRequired, allowMagicLink: true, enrolmentGraceDays: 7, sessionMaxWebDays: nil,
        sessionMaxMobileDays: nil, requiredFactorSince: nil, passkeyRequiredSince: nil, updatedAt: nil, updatedBy: nil)

    /// The server's own absolute session lifetime in whole days (at least 1): the most a shop may choose.
    static func serverDays(isMobile: Bool, settings: ServerSettings) -> Int {
        max(1, Int(settings.sessionMaxLifetime(isMobile: isMobile) / day))
    }

    /// Seconds a session may last from its sign-in: the server's lifetime, or the shop's if shorter.
    func sessionMaxLifetime(isMobile: Bool, settings: ServerSettings) -> Double {
        let server = settings.sessionMaxLifetime(isMobile: isMobile)
        guard let days = isMobile ? sessionMaxMobileDays : sessionMaxWebDays else { return server }
        return min(server, Double(days) * Self.day)
    }

    /// When `user`, who enrolled `factors`, must have enrolled the required factor: the grace
    /// period from when the requirement started to apply to them (the change that set it, or
    /// their creation if later); nil when nothing is required. A user with only the app meets
    /// `app_or_passkey`, so a later `passkey` starts their grace afresh; a user with nothing keeps
    /// the deadline the first requirement gave them (a tightening never extends one). Without
    /// `factors`, the earliest deadline the user can have.
    func enrolmentDeadline(for user: UserRecord, factors: EnrolledFactors?) -> Double? {
        guard requiredFactor != .notRequired else { return nil }
        var since = requiredFactorSince ?? 0
        if requiredFactor != .appOrPasskey, factors?.hasAuthenticatorApp == true, let passkeyRequiredSince {
            since = max(since, passkeyRequiredSince)
        }
        return max(since, user.createdAt) + Double(enrolmentGraceDays) * Self.day
    }

    /// Whether `factors` meet the requirement.
    func isMet(by factors: EnrolledFactors) -> Bool {
        switch requiredFactor {
        case .notRequired: true
        case .appOrPasskey: factors.hasAuthenticatorApp || factors.hasPasskeys
        case .passkey, .unknown: factors.hasPasskeys
        }
    }

    /// Where `user`, who enrolled `factors`, stands at `now`.
    func standing(of user: UserRecord, factors: EnrolledFactors, now: Double) -> FactorStanding {
        guard let deadline = enrolmentDeadline(for: user, factors: factors), !isMet(by: factors) else { return .satisfied }
        let requirement = EnrolmentRequirement(methods: requiredFactor.enrolmentMethods, deadline: Timestamp.iso8601(deadline))
        return now < deadline ? .grace(requirement) : .restricted(requirement)
    }

    /// The wire object, with the server's lifetimes where the shop chose none.
    func wire(settings: ServerSettings, updatedBy actor: ActorSummary?) -> SecurityPolicy {
        SecurityPolicy(
            requiredFactor: requiredFactor, allowMagicLink: allowMagicLink, enrolmentGraceDays: enrolmentGraceDays,
            // What applies: the server's own where the shop chose none or more (an operator may
            // have shortened the server's since).
            sessionMaxLifetimeDays: SessionLifetimeDays(
                web: min(sessionMaxWebDays ?? .max, Self.serverDays(isMobile: false, settings: settings)),
                mobile: min(sessionMaxMobileDays ?? .max, Self.serverDays(isMobile: true, settings: settings))),
            updatedAt: updatedAt.map(Timestamp.iso8601), updatedBy: actor)
    }
}

extension ShopPolicy: Decodable {
    /// Its columns of `companies`, as `SecurityPolicyStore` selects them.
    enum CodingKeys: String, CodingKey {
        case requiredFactor = "required_factor", allowMagicLink = "allow_magic_link", enrolmentGraceDays = "enrolment_grace_days"
        case sessionMaxWebDays = "session_max_web_days", sessionMaxMobileDays = "session_max_mobile_days"
        case requiredFactorSince = "required_factor_since", passkeyRequiredSince = "passkey_required_since"
        case updatedAt = "policy_updated_at", updatedBy = "policy_updated_by"
    }

    init(from decoder: any Decoder) throws {
        let row = try decoder.container(keyedBy: CodingKeys.self)
        // A value this version does not know (a damaged row) requires the most: failing closed.
        let required = try row.decode(String.self, forKey: .requiredFactor)
        requiredFactor = RequiredFactor(known: required) ?? .passkey
        allowMagicLink = try row.decode(Int.self, forKey: .allowMagicLink) != 0
        enrolmentGraceDays = try row.decode(Int.self, forKey: .enrolmentGraceDays)
        sessionMaxWebDays = try row.decodeIfPresent(Int.self, forKey: .sessionMaxWebDays)
        sessionMaxMobileDays = try row.decodeIfPresent(Int.self, forKey: .sessionMaxMobileDays)
        requiredFactorSince = try row.decodeIfPresent(Double.self, forKey: .requiredFactorSince)
        passkeyRequiredSince = try row.decodeIfPresent(Double.self, forKey: .passkeyRequiredSince)
        updatedAt = try row.decodeIfPresent(Double.self, forKey: .updatedAt)
        updatedBy = try row.decodeIfPresent(String.self, forKey: .updatedBy)
    }
}

/// Where a staff member stands against their shop's required factor (docs/API.md §13.3).
enum FactorStanding: Sendable, Equatable {
    /// Nothing required, or enrolled: full access.
    case satisfied
    /// Not enrolled, before the deadline: full access, and the token response says so.
    case grace(EnrolmentRequirement)
    /// Not enrolled, past the deadline: the session is restricted to enrolment.
    case restricted(EnrolmentRequirement)

    /// What the token response carries.
    var requirement: EnrolmentRequirement? {
        switch self {
        case .satisfied: nil
        case .grace(let requirement), .restricted(let requirement): requirement
        }
    }

    var isRestricted: Bool { if case .restricted = self { true } else { false } }

    /// The tokens' `scope`.
    var scope: String? { isRestricted ? TokenScope.enrolment : nil }
}
