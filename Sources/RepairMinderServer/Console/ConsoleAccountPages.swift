import Foundation
import Hummingbird
import RepairMinderModels

/// My account (docs/API.md §15.6, §9, §2.10, §11): who is signed in, their password, their
/// authenticator app and passkeys, their signed-in devices (this console among them, each of
/// which they can end) and their recent activity. Every staff member may use it. A session the
/// shop's policy restricts (§13.3) sees only what the API lets it do: set up an authenticator
/// app (when the policy takes one) or a passkey.
struct ConsoleAccountPages: Sendable {
    let console: Console
    let sessionList: SessionListController
    let password: PasswordController
    let activity: ActivityController
    let authenticator: ConsoleAuthenticatorPages
    let passkeys: ConsolePasskeyPages
    let ownAccount: AccountDeletionController
    let connectedApps: OAuthAppController

    func mount(on pages: ConsoleMounting) {
        pages.get("/account") { try await show($0) }
        pages.post("/account/sessions/:id/sign-out") { page, _ in
            _ = try await console.call(Routes.accountLifecycle.revokeSession, page, body: EmptyPayload(), sessionList.revoke)
            return console.redirect("/account?notice=signed-out-member")
        }
        pages.post("/account/password") { try await changePassword($0, $1) }
        pages.post("/account/delete") { try await deleteAccount($0, $1) }
        pages.get("/account/export") { try await export($0) }
        pages.post("/account/apps/:clientId/withdraw") { page, _ in
            _ = try await console.call(Routes.apps.withdrawApp, page, body: EmptyPayload(), connectedApps.withdraw)
            return console.redirect("/account?notice=app-withdrawn")
        }
        authenticator.mount(on: pages)
        passkeys.mount(on: pages, account: self)
    }

    struct AccountPage {
        let name: String
        let email: String
        let shop: String
        let role: String
        /// The session may only enrol (§13.3): the other sections are left out.
        let restricted: Bool
        let full: Bool
        let hasPassword: Bool
        let totpEnabled: Bool
        /// Whether to offer setting up the app: off, and (restricted) the policy takes it.
        let offerApp: Bool
        let recoveryCodesRemaining: String
        let passkeys: [ConsolePasskeyPages.Row]
        let hasPasskeys: Bool
        let sessions: [Session]
        /// The apps the person allowed (docs/API.md §16.3).
        let apps: [App]
        let hasApps: Bool
        let activity: [ActivityRow]
        let hasActivity: Bool
    }

    /// A signed-in device as the account page and a member's page list it.
    struct Session {
        let id: String
        let device: String
        let ipAddress: String
        let lastUsed: String
        let current: Bool

        init(_ session: SessionInfo) {
            id = session.id
            device = session.userAgent ?? (session.isMobile ? "A mobile app" : "A browser")
            ipAddress = session.ipAddress ?? "—"
            lastUsed = ConsoleDates.readable(session.lastUsedAt ?? session.createdAt)
            current = session.current
        }
    }

    struct App {
        let clientId: String
        let name: String
        let owner: String
        let scopes: String
        let since: String
    }

    struct ActivityRow {
        let event: String
        let at: String
        let ipAddress: String
        let device: String
    }

    /// The page; `problem` (with `status`) after a form of it was refused.
    func show(_ page: ConsolePageRequest, problem: String? = nil, status: HTTPResponse.Status = .ok) async throws -> Response {
        let user = page.staff.user
        let restricted = page.staff.restricted
        var sessions: [SessionInfo] = [], events: [ActivityEvent] = [], passkeyList: [Passkey] = [], apps: [AuthorizedApp] = []
        var totp = TOTPStatusResponse(enabled: false, recoveryCodesRemaining: 0)
        var offerApp = true
        if restricted {
            // Only enrolment's routes answer a restricted session: the policy says which factors count.
            offerApp = try await console.callers.policies.cached(companyId: page.staff.company.id).requiredFactor == .appOrPasskey
        } else {
            sessions = try await console.call(Routes.accountLifecycle.sessions, page, body: EmptyPayload(), sessionList.list)
            apps = try await console.call(Routes.apps.authorizedApps, page, body: EmptyPayload(), connectedApps.authorized)
            events = try await console.call(Routes.accountLifecycle.activity, page, activity.activity).0
            passkeyList = try await console.call(Routes.passkeys.list, page, body: EmptyPayload(), passkeys.controller.list)
            totp = try await console.call(Routes.staffAuth.totpStatus, page, body: EmptyPayload(), authenticator.controller.status)
            offerApp = !totp.enabled
        }
        let view = AccountPage(
            name: CustomerClient.displayName(firstName: user.firstName, lastName: user.lastName, email: user.email), email: user.email,
            shop: page.staff.company.name, role: ConsoleListing.roleName(user.userRole), restricted: restricted, full: !restricted,
            hasPassword: user.passwordHash != nil, totpEnabled: totp.enabled, offerApp: offerApp,
            recoveryCodesRemaining: "\(totp.recoveryCodesRemaining)",
            passkeys: passkeyList.map(ConsolePasskeyPages.row), hasPasskeys: !passkeyList.isEmpty,
            sessions: sessions.map(Session.init),
            apps: apps.map {
                App(
                    clientId: $0.clientId, name: $0.name, owner: $0.owner, scopes: $0.scopes.joined(separator: ", "),
                    since: ConsoleDates.readable($0.grantedAt))
            }, hasApps: !apps.isEmpty,
            activity: events.map(Self.activityRow), hasActivity: !events.isEmpty)
        return console.templates.page(
            "account", page.view("My account", current: "\(Console.root)/account", page: view, problem: problem), status: status)
    }

    // MARK: The password (§9.3)

    /// The API's change (its messages: a wrong current password, a weak new one); the two new
    /// fields must match first, as on the invitation page.
    private func changePassword(_ page: ConsolePageRequest, _ form: ConsoleForm) async throws -> Response {
        let new = form.text("newPassword")
        guard new == form.text("confirmPassword") else {
            return try await show(page, problem: "The two new passwords do not match. Type the same password in both fields.", status: .badRequest)
        }
        let current = page.staff.user.passwordHash == nil ? nil : form.text("currentPassword")
        do {
            _ = try await console.call(
                Routes.accountLifecycle.changePassword, page, body: ChangePasswordRequest(currentPassword: current, newPassword: new),
                password.change)
        } catch let error as APIError where error.status.code < 500 && error.code != .rateLimited && error.code != .factorEnrolmentRequired {
            return try await show(page, problem: error.message, status: error.status)
        }
        return console.redirect("/account?notice=password-changed")
    }

    // MARK: Deletion and export (§9.5)

    /// The API's deletion (its password check, the shop-keeps-an-admin rule and their words),
    /// once DELETE is typed; then the cookie goes with the session and sign-in says why.
    private func deleteAccount(_ page: ConsolePageRequest, _ form: ConsoleForm) async throws -> Response {
        guard form.text("confirm").trimmingCharacters(in: .whitespaces) == "DELETE" else {
            return try await show(page, problem: "Type DELETE to confirm that the account is to be deleted.", status: .badRequest)
        }
        let body = DeleteAccountRequest(
            password: page.staff.user.passwordHash == nil ? nil : form.text("password"), closeShop: form.text("closeShop") == "true" ? true : nil)
        do {
            _ = try await console.call(Routes.accountLifecycle.deleteAccount, page, body: body, ownAccount.deleteStaff)
        } catch let error as APIError where error.status.code < 500 && error.code != .rateLimited {
            return try await show(page, problem: error.message, status: error.status)
        }
        return console.redirect("/sign-in?notice=account-deleted", headers: [.setCookie: ConsoleCookies.clearing(ConsoleCookies.session)])
    }

    /// The export as a file to save (`Content-Disposition: attachment`).
    private func export(_ page: ConsolePageRequest) async throws -> Response {
        let export = try await console.call(Routes.accountLifecycle.exportAccount, page, body: EmptyPayload(), ownAccount.export)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8", .contentDisposition: #"attachment; filename="repairminder-account.json""#],
            body: ResponseBody(byteBuffer: ByteBuffer(data: try encoder.encode(export))))
    }

    // MARK: Activity (§9.4)

    static func activityRow(_ event: ActivityEvent) -> ActivityRow {
        var what = event.type.spokenName
        if let actor = event.actor { what += " (by \(actor.email))" }
        return ActivityRow(
            event: what, at: ConsoleDates.readable(event.at), ipAddress: event.ipAddress ?? "—", device: event.userAgent ?? "—")
    }
}
