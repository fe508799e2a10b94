import RepairMinderModels
import SQLKit

/// A staff user's push preferences; everything on until they change it.
struct PushPreferencesStore: Sendable {
    let database: Database

    private struct Row: Decodable {
        var enabled: Int
        var orders: Int
        var devices: Int
        var enquiries: Int
        var payments: Int
    }

    func preferences(userId: String) async throws -> PushPreferences {
        let row = try await database.withConnection { db in
            try await db.raw("SELECT enabled, orders, devices, enquiries, payments FROM push_preferences WHERE user_id = \(bind: userId)")
                .first(decoding: Row.self)
        }
        guard let row else { return PushPreferences() }
        return PushPreferences(
            enabled: row.enabled != 0, orders: row.orders != 0, devices: row.devices != 0,
            enquiries: row.enquiries != 0, payments: row.payments != 0)
    }

    func save(_ preferences: PushPreferences, userId: String, now: Double) async throws {
        let p = preferences
        try await database.withConnection { db in
            try await db.raw(
                """
                INSERT INTO push_preferences (user_id, enabled, orders, devices, enquiries, payments, updated_at)
                VALUES (\(bind: userId), \(bind: p.enabled ? 1 : 0), \(bind: p.orders ? 1 : 0), \(bind: p.devices ? 1 : 0),
                    \(bind: p.enquiries ? 1 : 0), \(bind: p.payments ? 1 : 0), \(bind: now))
                ON CONFLICT (user_id) DO UPDATE SET
                    enabled = excluded.enabled, orders = excluded.orders, devices = excluded.devices,
                    enquiries = excluded.enquiries, payments = excluded.payments, updated_at = excluded.updated_at
                """
            ).run()
        }
    }
}
