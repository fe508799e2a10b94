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
        /// Wrong emailed codes per address (`--wrong-code-limit` an hour, across every code it
        /// was sent): a try counts before it is compared and stays counted only when wrong.
        case wrongCodes
        /// Wrong second factors per staff user (`--second-factor-failure-limit` an hour, across
        /// their login challenges): as `wrongCodes`.
        case secondFactors
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
        /// What only the handler finds (a login challenge's user): it names the key when it
        /// reaches the point of spending (`RouteCall.spend`); the mounter still settles it.
        case foundByHandler
    }

    public let kind: Kind
    public let key: Key
    /// Keeps this route's counts apart from another's of the same kind and key (REKI's
    /// passwords from staff's, authenticator codes from passwords).
    public let namespace: String

    public init(_ kind: Kind, by key: Key, namespace: String = "") {
        self.kind = kind
        self.key = key
        self.namespace = namespace
    }

    /// The per-IP sign-in limit.
    public static let clientIP = RouteBudget(.clientIP, by: .clientIP)
    public static func failedSecrets(by key: Key, namespace: String = "") -> RouteBudget {
        RouteBudget(.failedSecrets, by: key, namespace: namespace)
    }
    public static func codeEmails(by key: Key) -> RouteBudget { RouteBudget(.codeEmails, by: key) }
    public static func wrongCodes(by key: Key) -> RouteBudget { RouteBudget(.wrongCodes, by: key) }
    public static func secondFactors(by key: Key) -> RouteBudget { RouteBudget(.secondFactors, by: key) }
}
