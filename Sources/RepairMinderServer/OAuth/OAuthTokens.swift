import Foundation
import JWTKit
import RepairMinderModels

/// An access token a connected app gets (docs/API.md §16.4): signed like every access token
/// (the set's access key, `typ: at+jwt`, RFC 9068), for the app (`aud` its client id), with the
/// scope granted and the permissions among it. Repair Minder's own `/api` routes refuse it (their
/// audience is `repairminder`); the app, and the platform's services, verify it with the JWKS.
struct OAuthAccessPayload: JWTPayload, Equatable {
    var iss: String
    var sub: String
    var aud: String
    var clientId: String
    var scope: String
    var sid: String
    var iat: Int
    var exp: Int
    var jti: String
    var companyId: String
    var role: String
    /// The granted scopes that are permissions of §12.1.
    var permissions: [String]

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, clientId = "client_id", scope, sid, iat, exp, jti, companyId, role, permissions
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// An ID token (docs/API.md §16.5): who signed in, for whom, how and when; the profile, email
/// and shop claims only for the scopes granted.
struct IDTokenPayload: JWTPayload, Equatable {
    struct Shop: Codable, Equatable {
        var id: String
        var name: String
    }

    var iss: String
    var sub: String
    var aud: String
    var azp: String
    var exp: Int
    var iat: Int
    var authTime: Int
    var nonce: String?
    var amr: [String]?
    var sid: String
    var name: String?
    var givenName: String?
    var familyName: String?
    var email: String?
    var emailVerified: Bool?
    var company: Shop?
    var role: String?

    /// The claim that names the person's shop, namespaced as OpenID Connect §5.1.2 asks.
    static let companyClaim = "https://repairminder.app/company"

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, azp, exp, iat, authTime = "auth_time", nonce, amr, sid, name, givenName = "given_name"
        case familyName = "family_name", email, emailVerified = "email_verified", company = "https://repairminder.app/company"
        case role = "https://repairminder.app/role"
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// The claims about a person the scopes granted release: the ID token's and UserInfo's.
struct OAuthUserClaims: Sendable {
    let user: UserRecord
    let company: CompanyRecord
    let scopes: Set<String>

    var name: String? {
        guard scopes.contains("profile") else { return nil }
        let full = [user.firstName, user.lastName].compactMap { $0 }.joined(separator: " ")
        return full.isEmpty ? nil : full
    }
    var givenName: String? { scopes.contains("profile") ? user.firstName : nil }
    var familyName: String? { scopes.contains("profile") ? user.lastName : nil }
    var email: String? { scopes.contains("email") ? user.email : nil }
    /// Every staff address was proved by a code sent to it (an invitation, a registration).
    var emailVerified: Bool? { scopes.contains("email") ? true : nil }
    var shop: IDTokenPayload.Shop? { scopes.contains("repairminder") ? .init(id: company.id, name: company.name) : nil }
    var role: String? { scopes.contains("repairminder") ? user.role : nil }

    /// UserInfo's answer (OpenID Connect Core §5.3): `sub` and the claims granted.
    var userInfo: [String: JSONValue] {
        var claims: [String: JSONValue] = ["sub": .string(user.id)]
        if let name { claims["name"] = .string(name) }
        if let givenName { claims["given_name"] = .string(givenName) }
        if let familyName { claims["family_name"] = .string(familyName) }
        if let email { claims["email"] = .string(email) }
        if let emailVerified { claims["email_verified"] = .bool(emailVerified) }
        if let shop { claims[IDTokenPayload.companyClaim] = .object(["id": .string(shop.id), "name": .string(shop.name)]) }
        if let role { claims["https://repairminder.app/role"] = .string(role) }
        return claims
    }
}
