/// A budget a route spends (docs/API.md §7), declared with the route as its credential and
/// quarantine rule are. The server's route mounter spends it and settles it from the answer;
/// the OpenAPI document lists the 429 it can cause. No handler counts or refunds a try itself.
public struct RouteBudget: Sendable, Hashable {
    /// What is counted, and how an answer settles a counted try.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Sign-in requests per client IP (`--ip-rate-limit`); every request counts.
        case clientIP
        /// Failed secrets per account (`--login-failure-limit` per 15 minutes): passwords, and
        /// authenticator codes typed outside a login. A try counts before it is checked and
        /// stays counted when the answer says the secret was wrong; a success starts the
        /// account's count afresh; any other refusal takes the try back.
        case failedSecrets
        /// Code emails per address (`--code-emails-per-hour`, at least `--code-resend-interval`
        /// apart), counted for every address, known or not; never taken back.
        case codeEmails
        /// Code emails per login challenge (step 2 after a right password): a few while it
        /// lives (its own spacing is the challenge's); never taken back. Never the address's
        /// anonymous budget, which anyone can spend.
        case challengeEmails
        /// Wrong emailed codes per address (`--wrong-code-limit` an hour, across every code it
        /// was sent): a try counts before it is compared and stays counted only when wrong.
        case wrongCodes
        /// Wrong second factors per staff user (`--second-factor-failure-limit` an hour, across
        /// their login challenges): as `wrongCodes`.
        case secondFactors
        /// Passkey enrolments started per staff user (`register/options`, each storing a
        /// challenge): `--passkey-enrolments-per-minute`; never taken back.
        case passkeyEnrolments
        /// Invitation mails per shop (`--invitations-per-day`): sent and resent; never taken
        /// back once the mail is queued, taken back when the request is refused before.
        case invitations
        /// Portal invitations per shop: 200 a day; counted like `invitations`.
        case portalInvitesPerShop
        /// Portal invitations per client: one a minute; counted like `invitations`.
        case portalInvitesPerClient
    }

    /// Whose budget a call spends.
    public enum Key: Sendable, Hashable {
        /// The client's address (`clientIP` only).
        case clientIP
        /// The request body's `email` (normalised by its rule).
        case bodyEmail
        /// The signed-in staff member's email.
        case callerEmail
        /// The signed-in staff member's id.
        case callerId
        /// The signed-in staff member's company.
        case callerCompany
        /// What only the handler finds (a login challenge's user): it names the key when it
        /// reaches the point of spending (`RouteCall.spend`); the mounter still settles it.
        case foundByHandler
    }

    public let kind: Kind
    public let key: Key
    /// Keeps this route's counts apart from another's of the same kind and key (REKI's
    /// passwords from staff's, authenticator codes from passwords, customers' addresses from
    /// staff's).
    public let namespace: String
    /// Counted per key *and* client network (IPv4 /24, IPv6 /64), under a key-wide ceiling
    /// `networkCeilingFactor` times the limit: for keys anyone can name (an address in a
    /// request body), so that one network cannot use up the owner's budget.
    public let perNetwork: Bool

    /// How many networks' worth of tries a key takes in all, when counted per network.
    public static let networkCeilingFactor = 5

    /// A budget of `kind` keyed by `key`; counted per network by default when the key is an
    /// address anyone can send (`bodyEmail`).
    public init(_ kind: Kind, by key: Key, namespace: String = "", perNetwork: Bool? = nil) {
        self.kind = kind
        self.key = key
        self.namespace = namespace
        self.perNetwork = perNetwork ?? (key == .bodyEmail)
    }

    /// The per-IP sign-in limit.
    public static let clientIP = RouteBudget(.clientIP, by: .clientIP)
    public static func failedSecrets(by key: Key, namespace: String = "") -> RouteBudget {
        RouteBudget(.failedSecrets, by: key, namespace: namespace)
    }
    public static func codeEmails(by key: Key, namespace: String = "", perNetwork: Bool? = nil) -> RouteBudget {
        RouteBudget(.codeEmails, by: key, namespace: namespace, perNetwork: perNetwork)
    }
    /// Login step 2's code emails, per challenge (the handler finds it).
    public static let challengeEmails = RouteBudget(.challengeEmails, by: .foundByHandler)
    public static func wrongCodes(by key: Key, namespace: String = "") -> RouteBudget {
        RouteBudget(.wrongCodes, by: key, namespace: namespace)
    }
    public static func secondFactors(by key: Key) -> RouteBudget { RouteBudget(.secondFactors, by: key) }
    /// Invitation mails of the signed-in staff member's shop.
    public static let invitations = RouteBudget(.invitations, by: .callerCompany)
    /// Portal invitation mails of the signed-in staff member's shop.
    public static let portalInvitesPerShop = RouteBudget(.portalInvitesPerShop, by: .callerCompany)
    /// Portal invitation mails to one client (the handler finds the client).
    public static let portalInvitesPerClient = RouteBudget(.portalInvitesPerClient, by: .foundByHandler)
    /// Passkey enrolments started by the signed-in staff member.
    public static let passkeyEnrolments = RouteBudget(.passkeyEnrolments, by: .callerId)
}
