import Foundation
import Hummingbird
import RepairMinderModels

/// My account's passkeys (docs/API.md §15.6, §11.2), through the API's own handlers: the list,
/// removing one after a confirmation, and adding one, which needs the browser's WebAuthn API:
/// the console's script (`console.js`) asks `POST /console/account/passkeys/options` for the
/// creation options (the API's registration options, as JSON), runs
/// `navigator.credentials.create` with them, and posts the answer as a form to
/// `POST /console/account/passkeys` (the API's registration verify). The API has no renaming.
/// A restricted session may add one (§13.3).
struct ConsolePasskeyPages: Sendable {
    let console: Console
    let controller: PasskeyController

    func mount(on pages: ConsoleMounting, account: ConsoleAccountPages) {
        pages.post("/account/passkeys/options") { page, _ in try await options(page) }
        pages.post("/account/passkeys") { try await register($0, $1, account: account) }
        pages.get("/account/passkeys/:id/remove") { try await confirmRemoval($0) }
        pages.post("/account/passkeys/:id/remove") { page, _ in
            _ = try await console.call(Routes.passkeys.remove, page, body: EmptyPayload(), controller.remove)
            return console.redirect("/account?notice=passkey-removed")
        }
    }

    /// A passkey as My account lists it.
    struct Row {
        let id: String
        let name: String
        let createdAt: String
        let lastUsed: String
        let synced: String
    }

    static func row(_ passkey: Passkey) -> Row {
        Row(
            id: passkey.id, name: passkey.name, createdAt: ConsoleDates.readable(passkey.createdAt),
            lastUsed: passkey.lastUsedAt.map(ConsoleDates.readable) ?? "Never", synced: passkey.backedUp ? "Yes" : "No")
    }

    // MARK: Adding one

    /// The API's creation options as JSON for the script; a refusal (too many passkeys, too many
    /// tries) as `{"error": message}` with the API's status.
    private func options(_ page: ConsolePageRequest) async throws -> Response {
        do {
            let options = try await console.call(
                Routes.passkeys.registrationOptions, page, body: EmptyPayload(), controller.registrationOptions)
            return try Self.json(options)
        } catch let error as APIError where error.status.code < 500 {
            var response = try Self.json(["error": error.message], status: error.status)
            for field in error.headers { response.headers.append(field) }
            return response
        }
    }

    /// The browser's answer, kept as the API keeps it; a refusal is My account again with why.
    private func register(_ page: ConsolePageRequest, _ form: ConsoleForm, account: ConsoleAccountPages) async throws -> Response {
        let name = form.text("name").trimmingCharacters(in: .whitespacesAndNewlines)
        guard let json = form["credential"], !json.isEmpty else {
            return try await account.show(
                page, problem: "Adding a passkey needs JavaScript and a browser that supports passkeys.", status: .badRequest)
        }
        guard let credential = try? JSONDecoder().decode(RegistrationResponseJSON.self, from: Data(json.utf8)) else {
            return try await account.show(
                page, problem: APIError.passkeyRefused(PasskeyProblem("the browser's answer could not be read")).message,
                status: .badRequest)
        }
        let body = PasskeyRegistrationRequest(challengeId: form.text("challengeId"), name: name.isEmpty ? nil : name, credential: credential)
        do {
            _ = try await console.call(Routes.passkeys.register, page, body: body, controller.register)
        } catch let error as APIError where error.status.code < 500 && error.code != .rateLimited {
            return try await account.show(page, problem: error.message, status: error.status)
        }
        return console.redirect("/account?notice=passkey-added")
    }

    // MARK: Removing one

    private func confirmRemoval(_ page: ConsolePageRequest) async throws -> Response {
        let id = page.parameter("id")
        let passkeys = try await console.call(Routes.passkeys.list, page, body: EmptyPayload(), controller.list)
        guard let passkey = passkeys.first(where: { $0.id == id }) else { throw APIError.notFound }
        let confirmation = ConsoleListing.Confirmation(
            question: "Remove the passkey “\(passkey.name)”?",
            consequence: passkeys.count == 1
                ? "It will no longer sign you in. It is your last passkey: unless you have an authenticator app, your password and an emailed code sign you in again."
                : "It will no longer sign you in. Remove it from the device or password manager that holds it too.",
            action: "\(Console.root)/account/passkeys/\(id)/remove", button: "Remove", back: "\(Console.root)/account")
        return console.templates.page(
            "confirm", page.view(confirmation.question, current: "\(Console.root)/account", page: confirmation))
    }

    /// `value` as the console's scripts read it: JSON, with the headers of every console answer.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        ConsoleTemplates.pageHeaders(into: &headers)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try JSONEncoder().encode(value))))
    }
}
