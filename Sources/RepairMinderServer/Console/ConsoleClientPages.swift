import Foundation
import Hummingbird
import RepairMinderModels

/// The shop's Clients pages (docs/API.md §15.6, §14): the list (search, sort, pages), adding a
/// client, one client's page (`ConsoleClientPage`), and the CSV import and export
/// (`ConsoleClientTransfer`). Every read and change is the API's own handler, called as the
/// signed-in member: `clients:read` to see them, `clients:write` to change them.
struct ConsoleClientPages: Sendable {
    let console: Console
    let clients: ClientController

    func mount(on pages: ConsoleMounting) {
        pages.get("/clients") { try await list($0) }
        pages.get("/clients/new") { page in
            try page.require(Routes.clients.create.erased)
            return try await addForm(page, fields: .empty, problem: nil)
        }
        pages.post("/clients/new") { try await add($0, $1) }
        pages.get("/clients/import") { try await importForm($0) }
        pages.postUpload("/clients/import", fileLimit: CSVFile.maxBytes) { try await importFile($0, $1) }
        pages.get("/clients/export") { try await export($0) }
        pages.get("/clients/:id") { try await show($0) }
        pages.post("/clients/:id") { try await edit($0, $1) }
        pages.post("/clients/:id/invite") { page, _ in try await invite(page) }
        for action in ClientAction.allCases {
            pages.get("/clients/:id/\(action.rawValue)") { try await confirm(action, $0) }
            pages.post("/clients/:id/\(action.rawValue)") { page, _ in try await apply(action, page) }
        }
    }

    // MARK: The list

    struct ListPage {
        let clients: [Row]
        let q: String
        let sorts: [ConsoleListing.Option]
        let pager: ConsoleListing.Pager
        let empty: Bool
        let canAdd: Bool
        let canImport: Bool
        let canExport: Bool
    }

    struct Row {
        let id: String
        let name: String
        let email: String
        let phone: String
        let portal: String
        let createdAt: String
    }

    /// The list's orders: the console's value, the API's `sort`, and the label.
    static let sorts = [("newest", "-created_at", "Newest first"), ("name", "name", "Name")]

    private func list(_ page: ConsolePageRequest) async throws -> Response {
        let q = page.query("q") ?? ""
        let sort = Self.sorts.first { $0.0 == page.query("sort") } ?? Self.sorts[0]
        var query = ["sort": sort.1]
        if !q.isEmpty { query["q"] = q }
        if let number = page.query("page") { query["page"] = number }
        let (rows, pagination) = try await console.call(Routes.clients.list, page.calling(query: query), clients.list)
        let view = ListPage(
            clients: rows.map(Self.row), q: q,
            sorts: Self.sorts.map { ConsoleListing.Option(value: $0.0, label: $0.2, selected: $0.0 == sort.0) },
            pager: ConsoleListing.pager(pagination, path: "/clients", query: ["q": q, "sort": sort.0 == "newest" ? "" : sort.0]),
            empty: rows.isEmpty, canAdd: page.may(Routes.clients.create.erased), canImport: page.may(Routes.clients.import.erased),
            canExport: page.may(Routes.clients.export.erased))
        return console.templates.page("clients", page.view("Clients", current: "\(Console.root)/clients", page: view))
    }

    static func row(_ client: ShopClient) -> Row {
        Row(
            id: client.id, name: client.name, email: client.email, phone: client.phone ?? "—", portal: client.portalEnabled ? "On" : "Off",
            createdAt: ConsoleDates.readable(client.createdAt))
    }

    // MARK: Adding

    /// A client's fields as a form shows them: the record's, or what was typed.
    struct Fields {
        let email: String
        let firstName: String
        let lastName: String
        let phone: String
        let notes: String
        let portalEnabled: Bool

        static let empty = Fields(email: "", firstName: "", lastName: "", phone: "", notes: "", portalEnabled: true)

        init(email: String, firstName: String, lastName: String, phone: String, notes: String, portalEnabled: Bool) {
            (self.email, self.firstName, self.lastName, self.phone, self.notes) = (email, firstName, lastName, phone, notes)
            self.portalEnabled = portalEnabled
        }

        init(_ client: ShopClient) {
            self.init(
                email: client.email, firstName: client.firstName ?? "", lastName: client.lastName ?? "", phone: client.phone ?? "",
                notes: client.notes ?? "", portalEnabled: client.portalEnabled)
        }

        /// What was typed. A browser sends a text area's line breaks as CRLF (the HTML
        /// standard's form encoding); the note was typed with line feeds, which the API takes.
        init(_ form: ConsoleForm) {
            self.init(
                email: form.text("email"), firstName: form.text("firstName"), lastName: form.text("lastName"), phone: form.text("phone"),
                notes: form.text("notes").replacingOccurrences(of: "\r\n", with: "\n"), portalEnabled: form["portalEnabled"] != nil)
        }
    }

    struct AddPage {
        let fields: Fields
        /// The client whose address this is already, after a 409 `CLIENT_EXISTS`.
        let existing: String?
    }

    private func addForm(_ page: ConsolePageRequest, fields: Fields, problem: String?, existing: String? = nil, status: HTTPResponse.Status = .ok)
        async throws -> Response
    {
        let view = AddPage(fields: fields, existing: existing)
        return console.templates.page(
            "client-new", page.view("Add a client", current: "\(Console.root)/clients", page: view, problem: problem), status: status)
    }

    private func add(_ page: ConsolePageRequest, _ form: ConsoleForm) async throws -> Response {
        let fields = Fields(form)
        // An empty optional field is one the client does not have: absent from the API's body.
        let body = ClientCreateRequest(
            email: fields.email, firstName: Self.given(fields.firstName), lastName: Self.given(fields.lastName),
            phone: Self.given(fields.phone), notes: Self.given(fields.notes))
        let client: ShopClient
        do {
            client = try await console.call(Routes.clients.create, page, body: body, clients.create)
        } catch let error as APIError where Self.isFormProblem(error) {
            return try await addForm(page, fields: fields, problem: error.message, existing: error.clientId, status: error.status)
        }
        return console.redirect("/clients/\(client.id)?notice=client-added")
    }

    /// A form's text, nil when nothing but whitespace was typed.
    static func given(_ text: String) -> String? {
        text.allSatisfy(\.isWhitespace) ? nil : text
    }

    /// Whether an API refusal is about what the form held, so the form is shown again with the
    /// API's message; any other (403, 404, 429) is answered as a page of its own.
    static func isFormProblem(_ error: APIError) -> Bool {
        [.badRequest, .conflict, .unsupportedMediaType].contains(error.status)
    }
}
