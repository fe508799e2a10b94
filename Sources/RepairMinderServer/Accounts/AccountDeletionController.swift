import Foundation
import RepairMinderModels

/// One's own account: delete it (staff and customers) and export what is kept about it
/// (docs/API.md §9.5). The export is read through the same handlers as the routes that show
/// each part, so it holds exactly what those show.
struct AccountDeletionController {
    let settings: ServerSettings
    let clock: ServerClock
    let deletion: AccountDeletion
    let hasher: PasswordHasher
    let database: Database
    let sessionList: SessionListController
    let passkeys: PasskeyController
    let totp: TOTPController
    let tokens: DeviceTokenStore
    let preferences: PushPreferencesStore

    func mount(on routes: RouteMounter) {
        routes.on(Routes.accountLifecycle.deleteAccount, use: deleteStaff)
        routes.on(Routes.accountLifecycle.exportAccount, use: export)
        routes.on(Routes.customerAuth.deleteAccount, use: deleteCustomer)
    }

    /// With a password, the password (a wrong one counts like a login's, §7); without one, a
    /// sign-in of the last 10 minutes, checked in the deletion's transaction.
    @Sendable func deleteStaff(_ call: RouteCall<DeleteAccountRequest>) async throws -> MessageResponse {
        let staff = try call.staff
        if let hash = staff.user.passwordHash {
            guard let password = call.body.password else { throw APIError.validation("password is required") }
            guard try await hasher.verify(password, against: hash) != nil else { throw APIError.invalidCredentials }
        }
        try await deletion.deleteStaff(staff, closeShop: call.body.closeShop ?? false, now: clock.now())
        return MessageResponse(message: "Your account has been deleted")
    }

    @Sendable func deleteCustomer(_ call: RouteCall<EmptyPayload>) async throws -> MessageResponse {
        try await deletion.deleteCustomer(try call.customer, now: clock.now())
        return MessageResponse(message: "Your account has been deleted")
    }

    @Sendable func export(_ call: RouteCall<EmptyPayload>) async throws -> AccountExport {
        let staff = try call.staff
        let owner = DeviceTokenOwner(kind: .staff, id: staff.user.id, sessionId: staff.claims.sid)
        return AccountExport(
            exportedAt: Timestamp.iso8601(clock.now()), user: staff.user.wire(companyStatus: staff.company.companyStatus),
            company: staff.company.wire(serverURL: settings.serverURL), hasPassword: staff.user.passwordHash != nil,
            authenticatorApp: try await totp.status(call), passkeys: try await passkeys.list(call),
            sessions: try await sessionList.list(call), pushDevices: try await tokens.list(owner: owner),
            pushPreferences: try await preferences.preferences(userId: staff.user.id),
            activity: try await allActivity(userId: staff.user.id))
    }

    /// Every event of the account, newest first, read a page at a time.
    private func allActivity(userId: String) async throws -> [ActivityEvent] {
        var events: [ActivityEvent] = [], page = 1
        while true {
            let (rows, total) = try await ActivityLog.page(userId: userId, page: page, limit: 500, in: database)
            events += rows.map(\.wire)
            guard !rows.isEmpty, events.count < total else { return events }
            page += 1
        }
    }
}
