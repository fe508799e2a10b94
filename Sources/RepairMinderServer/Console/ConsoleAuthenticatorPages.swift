import Foundation
import Hummingbird
import RepairMinderModels

/// My account's authenticator app (docs/API.md §15.6, §2.10), through the API's own handlers:
/// set up (the secret as a QR code of its `otpauth://` URI, drawn here, and as text to type),
/// confirm with a code (the recovery codes are shown this once), and turn off with a code after
/// a confirmation. The API has no way to make new recovery codes while the app is on: turning
/// it off and setting it up again makes new ones. A restricted session may set up (§13.3).
struct ConsoleAuthenticatorPages: Sendable {
    let console: Console
    let controller: TOTPController

    func mount(on pages: ConsoleMounting) {
        pages.post("/account/authenticator/setup") { page, _ in try await setup(page) }
        pages.post("/account/authenticator/confirm") { try await confirm($0, $1) }
        pages.get("/account/authenticator/disable") { try await disableForm($0, problem: nil) }
        pages.post("/account/authenticator/disable") { try await disable($0, $1) }
    }

    /// The setup page: scan or type the secret, then prove it with a code.
    struct SetupPage {
        /// The QR code of the `otpauth://` URI, as a `data:` URL for an `<img>`.
        let qr: String
        let otpauthUrl: String
        /// For the form: the pending secret, so a wrong code shows the same page again.
        let secret: String
        /// The secret in groups of four, easier to type.
        let secretGroups: String
    }

    /// The recovery codes, shown once.
    struct CodesPage {
        let codes: [String]
    }

    private static let accountPath = "\(Console.root)/account"

    private func setup(_ page: ConsolePageRequest) async throws -> Response {
        let answer = try await console.call(Routes.staffAuth.totpSetup, page, body: EmptyPayload(), controller.setup)
        return try setupPage(page, secret: answer.secret, otpauthUrl: answer.otpauthUrl, problem: nil)
    }

    private func setupPage(
        _ page: ConsolePageRequest, secret: String, otpauthUrl: String, problem: String?, status: HTTPResponse.Status = .ok
    ) throws -> Response {
        let groups = stride(from: 0, to: secret.count, by: 4).map { start in
            String(secret.dropFirst(start).prefix(4))
        }
        let view = SetupPage(
            qr: try QRCode(text: otpauthUrl).svgDataURL(), otpauthUrl: otpauthUrl, secret: secret,
            secretGroups: groups.joined(separator: " "))
        return console.templates.page(
            "account-authenticator",
            page.view("Set up an authenticator app", current: Self.accountPath, page: view, problem: problem), status: status)
    }

    private func confirm(_ page: ConsolePageRequest, _ form: ConsoleForm) async throws -> Response {
        let answer: TOTPEnabledResponse
        do {
            answer = try await console.call(
                Routes.staffAuth.totpVerifySetup, page, body: TOTPCodeRequest(code: form.text("code")), controller.verifySetup)
        } catch let error as APIError where error.code == .invalidCode || error.code == .validationError {
            // The same secret again (the form carries it; only a base32 one is drawn): the app
            // the person just set up keeps working with it.
            let secret = form.text("secret")
            guard !secret.isEmpty, secret.utf8.count <= 64, secret.allSatisfy({ ("A"..."Z").contains($0) || ("2"..."7").contains($0) })
            else { throw error }
            return try setupPage(
                page, secret: secret, otpauthUrl: AuthenticatorApp.otpauthURL(secret: secret, email: page.staff.user.email),
                problem: error.message, status: error.status)
        }
        return console.templates.page(
            "account-recovery-codes",
            page.view("Your recovery codes", current: Self.accountPath, page: CodesPage(codes: answer.recoveryCodes), notice: "The authenticator app is on."))
    }

    /// The confirmation before turning the app off: it takes a code from the app or a recovery code.
    private func disableForm(_ page: ConsolePageRequest, problem: String?, status: HTTPResponse.Status = .ok) async throws -> Response {
        console.templates.page(
            "account-authenticator-disable",
            page.view("Turn off the authenticator app?", current: Self.accountPath, problem: problem),
            status: status)
    }

    private func disable(_ page: ConsolePageRequest, _ form: ConsoleForm) async throws -> Response {
        do {
            _ = try await console.call(
                Routes.staffAuth.totpDisable, page, body: TOTPCodeRequest(code: form.text("code")), controller.disable)
        } catch let error as APIError where error.code == .invalidCode || error.code == .validationError {
            return try await disableForm(page, problem: error.message, status: error.status)
        }
        return console.redirect("/account?notice=app-off")
    }
}
