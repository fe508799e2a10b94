import Hummingbird

/// What differs between the kinds of caller a bearer token can name (staff, customer, REKI):
/// the claims its tokens carry, and how a verified token's caller is looked up.
protocol CallerLookup: Sendable {
    associatedtype Claims: AccessClaims
    associatedtype Caller: Sendable
    /// The caller `claims` name if their session is live and they may sign in; nil otherwise.
    func caller(for claims: Claims, now: Double) async throws -> Caller?
}

/// Who a bearer token belongs to, the same way for every kind of caller: the token's signature
/// and expiry (401 `TOKEN_EXPIRED` when only the expiry is wrong, a refresh may help), then the
/// kind's lookup (401 `UNAUTHORIZED` for anything else, docs/API.md §1). A token of another
/// kind never passes: each kind has its own audience and claims.
struct BearerIdentity<Lookup: CallerLookup>: Sendable {
    let signer: TokenSigner
    let lookup: Lookup
    let clock: ServerClock

    func resolve(_ token: String?) async throws -> Lookup.Caller {
        guard let token else { throw APIError.unauthorized }
        let now = clock.now()
        let claims = try await signer.verifyBearer(token, as: Lookup.Claims.self, now: now)
        guard let caller = try await lookup.caller(for: claims, now: now) else { throw APIError.unauthorized }
        return caller
    }
}

/// Who a customer token belongs to; a staff token is refused like any other wrong token
/// (401 `UNAUTHORIZED`).
typealias CustomerIdentity = BearerIdentity<CustomerCallers>

/// Who a staff access token belongs to.
typealias StaffIdentity = BearerIdentity<StaffCallers>

/// Who a REKI access token belongs to (REKI answers every refusal "Unauthorized").
typealias REKIIdentity = BearerIdentity<REKICallers>

/// The token of an `Authorization: Bearer <token>` header (the scheme in any case).
enum BearerToken {
    /// Read on every authenticated request, so by bytes: splitting, lower-casing and trimming
    /// with Foundation took 6% of a `/me` request.
    static func from(_ request: Request) -> String? {
        from(header: request.headers[.authorization])
    }

    /// The token of an `Authorization` header's value.
    static func from(header: String?) -> String? {
        guard let header else { return nil }
        let scheme = "bearer ".utf8
        guard header.utf8.count > scheme.count,
            // The letters in any case (setting bit 5 lower-cases them), then exactly a space.
            zip(header.utf8, scheme).allSatisfy({ $0 == $1 || ($1 != UInt8(ascii: " ") && $0 | 0x20 == $1) })
        else { return nil }
        var token = Substring(header).dropFirst(scheme.count)
        while let first = token.first, first == " " || first == "\t" { token = token.dropFirst() }
        while let last = token.last, last == " " || last == "\t" { token = token.dropLast() }
        return token.isEmpty || token.utf8.count > 4096 ? nil : String(token)
    }
}
