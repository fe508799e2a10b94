import Foundation
import RepairMinderModels
import SQLKit

/// Who a device token belongs to: a staff user or a customer (client).
struct DeviceTokenOwner: Sendable {
    enum Kind: String, Sendable {
        case staff
        case customer
    }

    let kind: Kind
    let id: String
    /// The session that registered it: the token goes when that session ends.
    let sessionId: String
}

/// Push device tokens: one owner per token, removed with the session that registered them.
struct DeviceTokenStore: Sendable {
    let database: Database

    private struct Row: Decodable {
        var id: String
        var deviceToken: String
        var platform: String
        var appType: String

        var wire: RegisteredDeviceToken? {
            guard let platform = PushPlatform(known: platform), let appType = PushAppType(known: appType) else { return nil }
            return RegisteredDeviceToken(id: id, deviceToken: deviceToken, platform: platform, appType: appType)
        }
    }

    /// Registers `token` for `owner`; a token registered before, by anyone, moves to `owner`.
    func register(
        _ token: String, platform: PushPlatform, appType: PushAppType, owner: DeviceTokenOwner, now: Double
    ) async throws -> RegisteredDeviceToken {
        // One statement, so two concurrent registrations of a token cannot leave two owners.
        let id = try await database.withConnection { db in
            try await db.raw(
                """
                INSERT INTO device_tokens (id, device_token, platform, app_type, owner_kind, owner_id, session_id, created_at, updated_at)
                VALUES (\(bind: UUID().uuidString.lowercased()), \(bind: token), \(bind: platform.rawValue), \(bind: appType.rawValue),
                    \(bind: owner.kind.rawValue), \(bind: owner.id), \(bind: owner.sessionId), \(bind: now), \(bind: now))
                ON CONFLICT (device_token) DO UPDATE SET
                    platform = excluded.platform, app_type = excluded.app_type, owner_kind = excluded.owner_kind,
                    owner_id = excluded.owner_id, session_id = excluded.session_id, updated_at = excluded.updated_at
                RETURNING id
                """
            ).first(decodingColumn: "id", as: String.self)
        }
        return RegisteredDeviceToken(id: id ?? "", deviceToken: token, platform: platform, appType: appType)
    }

    /// Removes `token` if `owner` has it; someone else's token is left alone.
    func remove(_ token: String, owner: DeviceTokenOwner) async throws {
        try await database.withConnection { db in
            try await db.raw(
                """
                DELETE FROM device_tokens
                WHERE device_token = \(bind: token) AND owner_kind = \(bind: owner.kind.rawValue) AND owner_id = \(bind: owner.id)
                """
            ).run()
        }
    }

    func list(owner: DeviceTokenOwner) async throws -> [RegisteredDeviceToken] {
        try await database.withConnection { db in
            try await db.raw(
                """
                SELECT id, device_token, platform, app_type FROM device_tokens
                WHERE owner_kind = \(bind: owner.kind.rawValue) AND owner_id = \(bind: owner.id) ORDER BY created_at
                """
            ).all(decoding: Row.self, with: AccountStore.rowDecoder).compactMap(\.wire)
        }
    }

    /// Forgets the tokens a session registered (on logout or revocation).
    static func removeAll(ofSession sessionId: String, on db: any SQLDatabase) async throws {
        try await db.raw("DELETE FROM device_tokens WHERE session_id = \(bind: sessionId)").run()
    }
}
