import Foundation
import Hummingbird
import RepairMinderModels

/// One client's page (docs/API.md §15.6, §14.2): the record and its edit form, the portal
/// invitation, the client's portal sessions and signing them out everywhere, and deleting the
/// client; the last two after a confirmation page.
extension ConsoleClientPages {
    struct ClientPage {
        let id: String
        let name: String
        let email: String
        let portal: String
        let lastPortalLogin: String
        let createdAt: String
        let updatedAt: String
        /// The edit form's values: the record's, or what was typed when the API refused it.
        let fields: Fields
        /// The client whose address was typed, after a 409 `CLIENT_EXISTS`.
        let existing: String?
        let sessions: [Session]
        let hasSessions: Bool
        let canWrite: Bool
    }

    struct Session {
        let device: String
        let ipAddress: String
        let createdAt: String
        let expiresAt: String
    }

    func show(_ page: ConsolePageRequest) async throws -> Response {
        try await clientPage(page, fields: nil, problem: nil)
    }

    /// The client's page, its form holding `fields` (the record's when nil).
    func clientPage(
        _ page: ConsolePageRequest, fields: Fields?, problem: String?, existing: String? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let client = try await console.call(Routes.clients.detail, page, body: EmptyPayload(), clients.detail)
        let sessions = try await console.call(Routes.clients.sessions, page, body: EmptyPayload(), clients.sessions)
        let view = ClientPage(
            id: client.id, name: client.name, email: client.email, portal: client.portalEnabled ? "On" : "Off",
            lastPortalLogin: client.lastPortalLogin.map(ConsoleDates.readable) ?? "Never", createdAt: ConsoleDates.readable(client.createdAt),
            updatedAt: ConsoleDates.readable(client.updatedAt), fields: fields ?? Fields(client), existing: existing,
            sessions: sessions.map {
                Session(
                    device: $0.userAgent ?? ($0.isMobile ? "The Repair Minder app" : "A browser"), ipAddress: $0.ipAddress ?? "—",
                    createdAt: ConsoleDates.readable($0.createdAt), expiresAt: ConsoleDates.readable($0.expiresAt))
            }, hasSessions: !sessions.isEmpty, canWrite: page.may(Routes.clients.update.erased))
        return console.templates.page(
            "client", page.view(client.name, current: "\(Console.root)/clients", page: view, problem: problem), status: status)
    }

    /// The edit form: sends the fields that differ from the record (an unchanged one is
    /// absent, as the API's PATCH reads it), so emptying a field the client has is the API's
    /// to refuse, in its words.
    func edit(_ page: ConsolePageRequest, _ form: ConsoleForm) async throws -> Response {
        let fields = Fields(form)
        do {
            let current = Fields(try await console.call(Routes.clients.detail, page, body: EmptyPayload(), clients.detail))
            func changed(_ typed: String, _ stored: String) -> String? {
                let trimmed = FieldRules.trimmingWhitespace(typed)
                return trimmed == stored ? nil : typed
            }
            let body = ClientUpdateRequest(
                email: changed(fields.email, current.email), firstName: changed(fields.firstName, current.firstName),
                lastName: changed(fields.lastName, current.lastName), phone: changed(fields.phone, current.phone),
                notes: changed(fields.notes, current.notes),
                portalEnabled: fields.portalEnabled == current.portalEnabled ? nil : fields.portalEnabled)
            _ = try await console.call(Routes.clients.update, page, body: body, clients.update)
        } catch let error as APIError where Self.isFormProblem(error) {
            return try await clientPage(page, fields: fields, problem: error.message, existing: error.clientId, status: error.status)
        }
        return console.redirect("/clients/\(page.parameter("id"))?notice=saved")
    }

    /// Mails the client the portal invitation (not undone, so without a confirmation).
    func invite(_ page: ConsolePageRequest) async throws -> Response {
        do {
            _ = try await console.call(Routes.clients.portalInvite, page, body: EmptyPayload(), clients.invite)
        } catch let error as APIError where error.code == .clientPortalDisabled {
            return try await clientPage(page, fields: nil, problem: error.message, status: error.status)
        }
        return console.redirect("/clients/\(page.parameter("id"))?notice=invited")
    }

    /// What can be done to a client from their page, each after a confirmation.
    enum ClientAction: String, CaseIterable {
        case signOut = "sign-out"
        case delete

        var button: String {
            switch self {
            case .signOut: "Sign out everywhere"
            case .delete: "Delete the client"
            }
        }

        func question(_ name: String) -> String {
            switch self {
            case .signOut: "Sign \(name) out of the portal everywhere?"
            case .delete: "Delete \(name)?"
            }
        }

        var consequence: String {
            switch self {
            case .signOut: "Every portal session of theirs with the shop ends now; they can sign in again with a code to their address."
            case .delete:
                "Their record leaves the shop's clients and their portal sessions end at once. The address can be added again later."
            }
        }
    }

    func confirm(_ action: ClientAction, _ page: ConsolePageRequest) async throws -> Response {
        try page.require(action == .delete ? Routes.clients.delete.erased : Routes.clients.signOut.erased)
        let client = try await console.call(Routes.clients.detail, page, body: EmptyPayload(), clients.detail)
        let id = page.parameter("id")
        let confirmation = ConsoleListing.Confirmation(
            question: action.question(client.name), consequence: action.consequence,
            action: "\(Console.root)/clients/\(id)/\(action.rawValue)", button: action.button, back: "\(Console.root)/clients/\(id)")
        return console.templates.page(
            "confirm", page.view(confirmation.question, current: "\(Console.root)/clients", page: confirmation))
    }

    func apply(_ action: ClientAction, _ page: ConsolePageRequest) async throws -> Response {
        switch action {
        case .signOut:
            _ = try await console.call(Routes.clients.signOut, page, body: EmptyPayload(), clients.signOut)
            return console.redirect("/clients/\(page.parameter("id"))?notice=signed-out-member")
        case .delete:
            _ = try await console.call(Routes.clients.delete, page, body: EmptyPayload(), clients.delete)
            return console.redirect("/clients?notice=client-deleted")
        }
    }
}
