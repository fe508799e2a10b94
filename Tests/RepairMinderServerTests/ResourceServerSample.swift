import Foundation
import JWTKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// README sample begins
/// The claims a service checks in a Repair Minder staff access token (docs/API.md §2.6).
struct StaffAccessToken: JWTPayload {
    let sub: SubjectClaim
    let iss: IssuerClaim
    let aud: AudienceClaim
    let exp: ExpirationClaim
    let companyId: String
    let role: String
    let permissions: [String]
    /// How the session signed in (RFC 8176, docs/API.md §13.2): `mfa` when two factors were used.
    let amr: [String]?
    /// `"enrol"` for a session its shop restricted until the user enrols a factor (§13.3).
    let scope: String?

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
        // "repairminder" is a staff token; a customer's says "repairminder-customer".
        try aud.verifyIntendedAudience(includes: "repairminder")
        // A restricted session may only enrol a factor with the auth server: nothing here.
        guard scope == nil else { throw JWTError.generic(identifier: "scope", reason: "restricted to enrolment") }
    }
}

/// Verifies Repair Minder access tokens with the public keys the server publishes: fetched
/// when first needed, again every 5 minutes, and once more when a token fails (a rotation
/// publishes a new key before it signs with it).
actor RepairMinderTokens {
    /// The server's public URL: what its tokens carry as `iss`.
    let issuer: String
    /// Where its keys are: `<issuer>/.well-known/jwks.json` unless said otherwise.
    let jwksURL: URL
    private var keys = JWTKeyCollection()
    private var fetchedAt = Date.distantPast

    init(issuer: String, jwksURL: URL? = nil) {
        self.issuer = issuer
        self.jwksURL = jwksURL ?? URL(string: issuer + "/.well-known/jwks.json")!
    }

    func verify(_ token: String) async throws -> StaffAccessToken {
        if Date().timeIntervalSince(fetchedAt) > 300 { try await fetchKeys() }
        do {
            return try await check(token)
        } catch where Date().timeIntervalSince(fetchedAt) > 10 {
            try await fetchKeys()
            return try await check(token)
        }
    }

    private func check(_ token: String) async throws -> StaffAccessToken {
        let claims = try await keys.verify(token, as: StaffAccessToken.self)
        guard claims.iss.value == issuer else {
            throw JWTError.claimVerificationFailure(failedClaim: claims.iss, reason: "not issued by \(issuer)")
        }
        return claims
    }

    private func fetchKeys() async throws {
        let (data, _) = try await URLSession.shared.data(from: jwksURL)
        let fresh = JWTKeyCollection()
        try await fresh.add(jwks: JSONDecoder().decode(JWKS.self, from: data))
        (keys, fetchedAt) = (fresh, Date())
    }
}
// README sample ends
