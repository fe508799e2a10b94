import RepairMinderModels
import SQLKit

/// A staff user's push preferences; everything on until they change it.
struct PushPreferencesStore: Sendable {
    let database: Database

    fileprivate struct Row: Decodable {
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
        return row?.preferences ?? PushPreferences()
    }

    /// Applies the changes `update` names in one statement (an upsert that keeps the fields it
    /// does not name), so concurrent updates of different fields all hold; returns the result.
    func apply(_ update: PushPreferencesUpdate, userId: String, now: Double) async throws -> PushPreferences {
        func flag(_ value: Bool?) -> Int? { value.map { $0 ? 1 : 0 } }
        let (enabled, orders, devices) = (flag(update.enabled), flag(update.orders), flag(update.devices))
        let (enquiries, payments) = (flag(update.enquiries), flag(update.payments))
        let row = try await database.withConnection { db in
            try await db.raw(
                """
                INSERT INTO push_preferences (user_id, enabled, orders, devices, enquiries, payments, updated_at)
                VALUES (\(bind: userId), COALESCE(\(bind: enabled), 1), COALESCE(\(bind: orders), 1), COALESCE(\(bind: devices), 1),
                    COALESCE(\(bind: enquiries), 1), COALESCE(\(bind: payments), 1), \(bind: now))
                ON CONFLICT (user_id) DO UPDATE SET
                    enabled = COALESCE(\(bind: enabled), push_preferences.enabled),
                    orders = COALESCE(\(bind: orders), push_preferences.orders),
                    devices = COALESCE(\(bind: devices), push_preferences.devices),
                    enquiries = COALESCE(\(bind: enquiries), push_preferences.enquiries),
                    payments = COALESCE(\(bind: payments), push_preferences.payments),
                    updated_at = excluded.updated_at
                RETURNING enabled, orders, devices, enquiries, payments
                """
            ).first(decoding: Row.self)
        }
        guard let row else { throw APIError.internalError }
        return row.preferences
    }
}

extension PushPreferencesStore.Row {
    var preferences: PushPreferences {
        PushPreferences(
            enabled: enabled != 0, orders: orders != 0, devices: devices != 0, enquiries: enquiries != 0, payments: payments != 0)
    }
}
