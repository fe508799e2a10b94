import Foundation
import RepairMinderModels
import SQLKit

/// Whose connected apps a request reaches (docs/API.md §16.1): one shop's, or the platform's.
enum OAuthAppOwner: Sendable, Equatable {
    case shop(String)
    case platform

    /// The `company_id` its apps carry.
    var companyId: String? {
        if case .shop(let id) = self { return id }
        return nil
    }

    /// The lock two changes of the same owner's apps take in turn (its count of apps).
    var lockKey: String { "apps:" + (companyId ?? "platform") }
}

/// A connected app as stored: what the token endpoint checks and what the routes answer.
struct OAuthAppRecord: Sendable {
    var id: String
    var clientId: String
    var companyId: String?
    var name: String
    var type: OAuthAppType
    var redirectUris: [String]
    var postLogoutRedirectUris: [String]
    var scopes: [String]
    var firstParty: Bool
    var secretHash: String?
    var previousSecretHash: String?
    var previousSecretExpiresAt: Double?
    var createdAt: Double
    var updatedAt: Double

    var owner: OAuthAppOwner { companyId.map(OAuthAppOwner.shop) ?? .platform }

    /// The app as the routes answer it; `secret` only in the answer that made it.
    func wire(secret: String? = nil, now: Double) -> OAuthApp {
        OAuthApp(
            id: id, clientId: clientId, clientSecret: secret, name: name, type: type, redirectUris: redirectUris,
            postLogoutRedirectUris: postLogoutRedirectUris, scopes: scopes, firstParty: firstParty, companyId: companyId,
            createdAt: Timestamp.iso8601(createdAt), updatedAt: Timestamp.iso8601(updatedAt),
            previousSecretExpiresAt: previousSecretExpiresAt.flatMap { $0 > now ? Timestamp.iso8601($0) : nil })
    }

    /// Whether `secret` is this app's secret, or the one it replaced while that still works;
    /// compared in constant time, as hashes.
    func accepts(secret: String, now: Double) -> Bool {
        let presented = SecretHashing.tokenHash(secret)
        let current = secretHash.map { SecretHashing.constantTimeEquals($0, presented) } ?? false
        let previous = previousSecretHash.map { SecretHashing.constantTimeEquals($0, presented) } ?? false
        return current || (previous && (previousSecretExpiresAt ?? 0) > now)
    }
}

/// The registry of connected apps (table `oauth_apps`): an owner's list, registration, change,
/// deletion and secret rotation, each audited in its transaction with the admin who did it.
struct OAuthAppStore: Sendable {
    let database: Database
    /// Most apps one shop, or the platform, may register (docs/API.md §7).
    static let maximumPerOwner = 25

    /// `rmapp_` and 128 random bits: public, in URLs and logs.
    static func newClientId() -> String { "rmapp_" + RandomToken.base64URL(byteCount: 16) }
    /// `rmsec_` and 256 random bits, shown once.
    static func newSecret() -> String { "rmsec_" + RandomToken.base64URL(byteCount: 32) }

    func list(_ owner: OAuthAppOwner) async throws -> [OAuthAppRecord] {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM oauth_apps WHERE \(Self.owned(by: owner)) ORDER BY created_at DESC, id DESC").all()
                .map(Self.record)
        }
    }

    /// App `id` of `owner`; 404 for another owner's or none.
    func app(_ id: String, of owner: OAuthAppOwner) async throws -> OAuthAppRecord {
        guard let found = try await database.withConnection({ db in try await Self.app(id, of: owner, on: db) }) else {
            throw APIError.notFound
        }
        return found
    }

    /// App `id`, whoever owns it.
    func app(id: String) async throws -> OAuthAppRecord? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM oauth_apps WHERE id = \(bind: id)").first().map(Self.record)
        }
    }

    /// The app whose public `client_id` is `clientId`, whoever owns it.
    func app(clientId: String) async throws -> OAuthAppRecord? {
        try await database.withConnection { db in
            try await db.raw("SELECT * FROM oauth_apps WHERE client_id = \(bind: clientId)").first().map(Self.record)
        }
    }

    /// Registers `registration` (already checked) for `owner`, by `admin`: the app and, for a
    /// confidential one, its secret, which only this answer holds.
    func register(_ registration: OAuthAppRegistration, for owner: OAuthAppOwner, by admin: AuthenticatedStaff, now: Double)
        async throws -> (OAuthAppRecord, secret: String?)
    {
        try await database.transaction(serializedOn: owner.lockKey) { db in
            let count = try await db.raw("SELECT COUNT(*) AS n FROM oauth_apps WHERE \(Self.owned(by: owner))")
                .first(decodingColumn: "n", as: Int.self) ?? 0
            guard count < Self.maximumPerOwner else {
                throw APIError(.appLimit, "There are \(count) apps already, the most allowed. Delete one to register another.")
            }
            let secret = registration.type == .confidential ? Self.newSecret() : nil
            let record = OAuthAppRecord(
                id: UUID().uuidString.lowercased(), clientId: Self.newClientId(), companyId: owner.companyId, name: registration.name,
                type: registration.type, redirectUris: registration.redirectUris,
                postLogoutRedirectUris: registration.postLogoutRedirectUris ?? [], scopes: Self.ordered(registration.scopes),
                firstParty: registration.firstParty ?? false, secretHash: secret.map(SecretHashing.tokenHash), createdAt: now,
                updatedAt: now)
            try await db.raw(
                """
                INSERT INTO oauth_apps (id, client_id, company_id, name, type, redirect_uris, post_logout_redirect_uris, scopes,
                    first_party, secret_hash, created_by, created_at, updated_at)
                VALUES (\(bind: record.id), \(bind: record.clientId), \(bind: record.companyId), \(bind: record.name),
                    \(bind: record.type.rawValue), \(bind: try Self.json(record.redirectUris)),
                    \(bind: try Self.json(record.postLogoutRedirectUris)), \(bind: record.scopes.joined(separator: " ")),
                    \(bind: record.firstParty ? 1 : 0), \(bind: record.secretHash), \(bind: admin.user.id), \(bind: now), \(bind: now))
                """
            ).run()
            try await Self.audit(.appRegistered, record, by: admin, now: now, on: db)
            return (record, secret)
        }
    }

    /// Applies `update` (already checked) to app `id` of `owner`; nothing is written or
    /// audited when nothing changes.
    func update(_ id: String, of owner: OAuthAppOwner, with update: OAuthAppUpdate, by admin: AuthenticatedStaff, now: Double)
        async throws -> OAuthAppRecord
    {
        try await database.transaction(serializedOn: owner.lockKey) { db in
            guard let before = try await Self.app(id, of: owner, on: db) else { throw APIError.notFound }
            var after = before
            after.name = update.name ?? before.name
            after.redirectUris = update.redirectUris ?? before.redirectUris
            after.postLogoutRedirectUris = update.postLogoutRedirectUris ?? before.postLogoutRedirectUris
            after.scopes = update.scopes.map(Self.ordered) ?? before.scopes
            after.firstParty = update.firstParty ?? before.firstParty
            let changed = [
                ("name", before.name != after.name), ("redirectUris", before.redirectUris != after.redirectUris),
                ("postLogoutRedirectUris", before.postLogoutRedirectUris != after.postLogoutRedirectUris),
                ("scopes", before.scopes != after.scopes), ("firstParty", before.firstParty != after.firstParty),
            ].filter(\.1).map(\.0)
            guard !changed.isEmpty else { return before }
            after.updatedAt = now
            try await db.raw(
                """
                UPDATE oauth_apps SET name = \(bind: after.name), redirect_uris = \(bind: try Self.json(after.redirectUris)),
                    post_logout_redirect_uris = \(bind: try Self.json(after.postLogoutRedirectUris)),
                    scopes = \(bind: after.scopes.joined(separator: " ")), first_party = \(bind: after.firstParty ? 1 : 0),
                    updated_at = \(bind: now)
                WHERE id = \(bind: id)
                """
            ).run()
            try await Self.audit(.appUpdated, after, by: admin, now: now, extra: ["changed": changed.joined(separator: ",")], on: db)
            return after
        }
    }

    /// Deletes app `id` of `owner`.
    func delete(_ id: String, of owner: OAuthAppOwner, by admin: AuthenticatedStaff, now: Double) async throws {
        try await database.transaction(serializedOn: owner.lockKey) { db in
            guard let app = try await Self.app(id, of: owner, on: db) else { throw APIError.notFound }
            try await db.raw("DELETE FROM oauth_apps WHERE id = \(bind: id)").run()
            try await Self.audit(.appDeleted, app, by: admin, now: now, on: db)
        }
    }

    /// A new secret for confidential app `id` of `owner`; the one it replaces keeps working
    /// for `overlap` seconds (and any older one stops now).
    func rotateSecret(_ id: String, of owner: OAuthAppOwner, overlap: Double, by admin: AuthenticatedStaff, now: Double)
        async throws -> (OAuthAppRecord, secret: String)
    {
        try await database.transaction(serializedOn: owner.lockKey) { db in
            guard var app = try await Self.app(id, of: owner, on: db) else { throw APIError.notFound }
            guard app.type == .confidential, let current = app.secretHash else {
                throw APIError(.appHasNoSecret, "A \(app.type.rawValue) app has no secret: PKCE proves its requests")
            }
            let secret = Self.newSecret()
            app.secretHash = SecretHashing.tokenHash(secret)
            app.previousSecretHash = overlap > 0 ? current : nil
            app.previousSecretExpiresAt = overlap > 0 ? now + overlap : nil
            app.updatedAt = now
            try await db.raw(
                """
                UPDATE oauth_apps SET secret_hash = \(bind: app.secretHash), previous_secret_hash = \(bind: app.previousSecretHash),
                    previous_secret_expires_at = \(bind: app.previousSecretExpiresAt), updated_at = \(bind: now)
                WHERE id = \(bind: id)
                """
            ).run()
            try await Self.audit(
                .appSecretRotated, app, by: admin, now: now, extra: ["previousSecretValidSeconds": String(Int(overlap))], on: db)
            return (app, secret)
        }
    }

    // MARK: Rows

    private static func app(_ id: String, of owner: OAuthAppOwner, on db: any SQLDatabase) async throws -> OAuthAppRecord? {
        try await db.raw("SELECT * FROM oauth_apps WHERE id = \(bind: id) AND \(owned(by: owner))").first().map(record)
    }

    private static func owned(by owner: OAuthAppOwner) -> SQLQueryString {
        owner.companyId.map { "company_id = \(bind: $0)" } ?? "company_id IS NULL"
    }

    private static func audit(
        _ type: OperatorEventType, _ app: OAuthAppRecord, by admin: AuthenticatedStaff, now: Double, extra: [String: String] = [:],
        on db: any SQLDatabase
    ) async throws {
        try await ActivityLog.record(
            type, companyId: app.companyId ?? admin.company.id, actor: admin.user.email, actorUserId: admin.user.id, at: now,
            detail: ["clientId": app.clientId, "name": app.name].merging(extra) { first, _ in first }, on: db)
    }

    /// Scopes in the catalogue's order, each once, so that the stored list reads the same
    /// however it was sent.
    private static func ordered(_ scopes: [String]) -> [String] {
        OAuthScope.all.filter(scopes.contains)
    }

    private static func json(_ list: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(list), as: UTF8.self)
    }

    private static func list(_ text: String) throws -> [String] {
        try JSONDecoder().decode([String].self, from: Data(text.utf8))
    }

    private static func record(_ row: any SQLRow) throws -> OAuthAppRecord {
        OAuthAppRecord(
            id: try row.decode(column: "id", as: String.self), clientId: try row.decode(column: "client_id", as: String.self),
            companyId: try row.decode(column: "company_id", as: String?.self), name: try row.decode(column: "name", as: String.self),
            type: OAuthAppType(rawValue: try row.decode(column: "type", as: String.self)),
            redirectUris: try list(try row.decode(column: "redirect_uris", as: String.self)),
            postLogoutRedirectUris: try list(try row.decode(column: "post_logout_redirect_uris", as: String.self)),
            scopes: try row.decode(column: "scopes", as: String.self).split(separator: " ").map(String.init),
            firstParty: try row.decode(column: "first_party", as: Int.self) != 0,
            secretHash: try row.decode(column: "secret_hash", as: String?.self),
            previousSecretHash: try row.decode(column: "previous_secret_hash", as: String?.self),
            previousSecretExpiresAt: try row.decode(column: "previous_secret_expires_at", as: Double?.self),
            createdAt: try row.decode(column: "created_at", as: Double.self), updatedAt: try row.decode(column: "updated_at", as: Double.self))
    }
}
