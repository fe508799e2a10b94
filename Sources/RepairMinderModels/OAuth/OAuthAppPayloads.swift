/// How an app proves it is itself at the token endpoint (docs/API.md §16.1).
public enum OAuthAppType: WireEnum {
    /// A server-side app that keeps a secret.
    case confidential
    /// A native or browser app, which cannot keep a secret: PKCE alone binds its codes.
    case `public`
    /// A type a newer server knows and this version does not.
    case unknown(String)

    public static let allCases: [OAuthAppType] = [.confidential, .public]

    public var rawValue: String {
        switch self {
        case .confidential: "confidential"
        case .public: "public"
        case .unknown(let raw): raw
        }
    }
}

/// A connected app: an OAuth 2 / OpenID Connect client of a shop or of the platform
/// (docs/API.md §16.1). `clientSecret` is present only in the answer that made it (the
/// registration, a rotation): only its hash is kept.
public struct OAuthApp: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var clientId: String
    public var clientSecret: String?
    public var name: String
    public var type: OAuthAppType
    public var redirectUris: [String]
    public var postLogoutRedirectUris: [String]
    public var scopes: [String]
    /// A platform app whose users see no consent page.
    public var firstParty: Bool
    /// The shop whose staff it signs in; nil for a platform app (any shop's staff).
    public var companyId: String?
    public var createdAt: String
    public var updatedAt: String
    /// Until when the secret before the last rotation still works; nil when none does.
    public var previousSecretExpiresAt: String?

    public init(
        id: String, clientId: String, clientSecret: String? = nil, name: String, type: OAuthAppType, redirectUris: [String],
        postLogoutRedirectUris: [String], scopes: [String], firstParty: Bool, companyId: String?, createdAt: String,
        updatedAt: String, previousSecretExpiresAt: String? = nil
    ) {
        self.id = id
        self.clientId = clientId
        self.clientSecret = clientSecret
        self.name = name
        self.type = type
        self.redirectUris = redirectUris
        self.postLogoutRedirectUris = postLogoutRedirectUris
        self.scopes = scopes
        self.firstParty = firstParty
        self.companyId = companyId
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.previousSecretExpiresAt = previousSecretExpiresAt
    }
}

extension OAuthApp: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("id", \.id, .nonEmptyText),
        .init("clientId", \.clientId, .nonEmptyText),
        .init("clientSecret", \.clientSecret, .string(.init(minLength: 1, description: "Only in the answer that made it")), required: false),
        .init("name", \.name, .nonEmptyText),
        .init("type", \.type, .cases(of: OAuthAppType.self)),
        .init("redirectUris", \.redirectUris, .array(.text)),
        .init("postLogoutRedirectUris", \.postLogoutRedirectUris, .array(.text)),
        .init("scopes", \.scopes, .array(.text)),
        .init("firstParty", \.firstParty, .boolean),
        .init("companyId", \.companyId, .nullable(.nonEmptyText)),
        .init("createdAt", \.createdAt, .timestamp),
        .init("updatedAt", \.updatedAt, .timestamp),
        .init("previousSecretExpiresAt", \.previousSecretExpiresAt, .nullable(.timestamp)),
    ]
    public static var schema: JSONSchema { .object(fields, description: "A connected app (an OAuth 2 / OpenID Connect client)") }
    public static var example: OAuthApp {
        OAuthApp(
            id: WireExample.appId, clientId: WireExample.oauthClientId, clientSecret: WireExample.oauthClientSecret,
            name: "Acme bookings", type: .confidential, redirectUris: ["https://bookings.acme.test/callback"],
            postLogoutRedirectUris: ["https://bookings.acme.test/"], scopes: ["openid", "profile", "email", "clients:read"],
            firstParty: false, companyId: WireExample.companyId, createdAt: WireExample.timestamp, updatedAt: WireExample.timestamp)
    }
}

/// `POST /api/company/apps` and `POST /api/admin/apps` body (docs/API.md §16.1).
public struct OAuthAppRegistration: Codable, Sendable, Equatable {
    public var name: String
    public var type: OAuthAppType
    public var redirectUris: [String]
    public var postLogoutRedirectUris: [String]?
    public var scopes: [String]
    public var firstParty: Bool?

    public init(
        name: String, type: OAuthAppType, redirectUris: [String], postLogoutRedirectUris: [String]? = nil, scopes: [String],
        firstParty: Bool? = nil
    ) {
        self.name = name
        self.type = type
        self.redirectUris = redirectUris
        self.postLogoutRedirectUris = postLogoutRedirectUris
        self.scopes = scopes
        self.firstParty = firstParty
    }
}

extension OAuthAppRegistration: WireRequest {
    public static let fields: [RequestField<Self>] = [
        .string("name", \.name, OAuthAppRules.name),
        .decoded("type", .cases(of: OAuthAppType.self)),
        .list("redirectUris", \.redirectUris, OAuthRedirectURI.rule, maxItems: OAuthRedirectURI.maxCount),
        .optionalList("postLogoutRedirectUris", \.postLogoutRedirectUris, OAuthRedirectURI.rule, maxItems: OAuthRedirectURI.maxCount),
        .list("scopes", \.scopes, OAuthScope.rule, maxItems: OAuthScope.all.count),
        .decoded("firstParty", .nullable(.boolean), required: false),
    ]
    public static var bodyDescription: String? { "The app to register" }
    public static var example: OAuthAppRegistration {
        OAuthAppRegistration(
            name: "Acme bookings", type: .confidential, redirectUris: ["https://bookings.acme.test/callback"],
            postLogoutRedirectUris: ["https://bookings.acme.test/"], scopes: ["openid", "profile", "email", "clients:read"])
    }
}

/// `PATCH …/apps/{id}` body: the fields to change; absent ones keep their value. An app's type
/// never changes (register another app).
public struct OAuthAppUpdate: Codable, Sendable, Equatable {
    public var name: String?
    public var redirectUris: [String]?
    public var postLogoutRedirectUris: [String]?
    public var scopes: [String]?
    public var firstParty: Bool?

    public init(
        name: String? = nil, redirectUris: [String]? = nil, postLogoutRedirectUris: [String]? = nil, scopes: [String]? = nil,
        firstParty: Bool? = nil
    ) {
        self.name = name
        self.redirectUris = redirectUris
        self.postLogoutRedirectUris = postLogoutRedirectUris
        self.scopes = scopes
        self.firstParty = firstParty
    }
}

extension OAuthAppUpdate: WireRequest {
    public static let fields: [RequestField<Self>] = [
        .optional("name", \.name, OAuthAppRules.name),
        .optionalList("redirectUris", \.redirectUris, OAuthRedirectURI.rule, maxItems: OAuthRedirectURI.maxCount),
        .optionalList("postLogoutRedirectUris", \.postLogoutRedirectUris, OAuthRedirectURI.rule, maxItems: OAuthRedirectURI.maxCount),
        .optionalList("scopes", \.scopes, OAuthScope.rule, maxItems: OAuthScope.all.count),
        .decoded("firstParty", .nullable(.boolean), required: false),
    ]
    public static var bodyDescription: String? { "The app's fields to change; absent ones keep their value" }
    public static var example: OAuthAppUpdate { OAuthAppUpdate(name: "Acme bookings (new)") }
}

/// `POST …/apps/{id}/secret` body: how long the secret being replaced keeps working, so the
/// app can be given the new one without a gap (0 ends it at once, after a leak).
public struct OAuthSecretRotation: Codable, Sendable, Equatable {
    public var previousSecretValidSeconds: Int?
    public init(previousSecretValidSeconds: Int? = nil) { self.previousSecretValidSeconds = previousSecretValidSeconds }
}

extension OAuthSecretRotation: WireRequest {
    public static let fields: [RequestField<Self>] = [
        .optionalInteger("previousSecretValidSeconds", \.previousSecretValidSeconds, in: OAuthAppRules.overlapSeconds)
    ]
    public static var bodyDescription: String? {
        "Seconds the replaced secret keeps working: 0 to 604800 (7 days), 86400 (a day) when left out"
    }
    public static var example: OAuthSecretRotation { OAuthSecretRotation(previousSecretValidSeconds: 3600) }
}

/// The rules of a connected app's fields beyond their URIs and scopes (docs/API.md §16.1, §7).
public enum OAuthAppRules {
    public static let name = FieldRules.text(maxLength: 100)
    /// How long a replaced secret may keep working, in seconds.
    public static let overlapSeconds = 0...604_800
    /// How long it does when the rotation does not say.
    public static let defaultOverlapSeconds = 86_400
}

/// An app the signed-in person allowed (docs/API.md §16.3), as My account lists it.
public struct AuthorizedApp: Codable, Sendable, Equatable, Identifiable {
    public var clientId: String
    public var name: String
    /// Whose app it is: the shop's name, or "Repair Minder" for the platform's.
    public var owner: String
    public var scopes: [String]
    public var grantedAt: String

    public var id: String { clientId }

    public init(clientId: String, name: String, owner: String, scopes: [String], grantedAt: String) {
        self.clientId = clientId
        self.name = name
        self.owner = owner
        self.scopes = scopes
        self.grantedAt = grantedAt
    }
}

extension AuthorizedApp: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("clientId", \.clientId, .nonEmptyText), .init("name", \.name, .nonEmptyText), .init("owner", \.owner, .nonEmptyText),
        .init("scopes", \.scopes, .array(.text)), .init("grantedAt", \.grantedAt, .timestamp),
    ]
    public static var schema: JSONSchema { .object(fields, description: "An app the person allowed, with the scopes allowed") }
    public static var example: AuthorizedApp {
        AuthorizedApp(
            clientId: WireExample.oauthClientId, name: "Acme bookings", owner: "Acme Repairs", scopes: ["openid", "profile", "email"],
            grantedAt: WireExample.timestamp)
    }
}
