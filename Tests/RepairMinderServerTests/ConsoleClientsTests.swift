import Foundation
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import SQLKit
import TestSupport
import Testing

@testable import RepairMinderServer

/// The console's Clients pages (docs/API.md §15.6, §14): an admin lists, searches, adds, edits
/// and deletes clients and imports a CSV through the pages, each the API's own handler; an
/// engineer is refused every page; a form from elsewhere changes nothing.
@Suite struct ConsoleClientsTests {
    /// The shop's live client with `email`, as the database holds it: first name, last name,
    /// phone, notes; nil when there is none.
    static func stored(_ server: TestServer, _ email: String) async throws -> [String?]? {
        try await server.withDatabase { database in
            try await database.withConnection { db in
                guard
                    let row = try await db.raw(
                        """
                        SELECT first_name, last_name, phone, notes FROM clients WHERE email = \(bind: email) AND deleted_at IS NULL
                        AND company_id = (SELECT company_id FROM users WHERE email = \(bind: DemoFixtures.adminEmail))
                        """
                    ).first()
                else { return nil }
                return try ["first_name", "last_name", "phone", "notes"].map { try row.decode(column: $0, as: String?.self) }
            }
        }
    }

    static func liveClients(_ server: TestServer) async throws -> Int {
        try await server.withDatabase { database in
            try await database.withConnection { db in
                try await db.raw(
                    "SELECT COUNT(*) AS n FROM clients WHERE deleted_at IS NULL AND company_id = (SELECT company_id FROM users WHERE email = \(bind: DemoFixtures.adminEmail))"
                ).first(decodingColumn: "n", as: Int.self) ?? -1
            }
        }
    }

    @Test func anAdminListsSearchesAddsEditsAndDeletesClients() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let browser = try await ConsoleBrowser.signedIn(client)
            let list = try await browser.get("/console/clients")
            #expect(list.status == .ok)
            #expect(list.headers[.contentSecurityPolicy] == ConsoleTemplates.contentSecurityPolicy)
            #expect(list.html.contains(#"<a href="/console/clients" aria-current="page">Clients</a>"#))
            #expect(list.html.contains(#"<a href="/console/security-policy">Sign-in requirements</a>"#))
            #expect(list.html.contains("jane@example.test") && list.html.contains("multi@example.test"))
            #expect(list.html.contains(#"<th scope="col">Email</th>"#))
            let search = try await browser.get("/console/clients?q=jan&sort=name")
            #expect(search.html.contains("jane@example.test") && !search.html.contains("multi@example.test"))
            #expect(search.html.contains(#"<option value="name" selected>"#))
            let none = try await browser.get("/console/clients?q=nobody")
            #expect(none.html.contains("No clients match “nobody”."))

            // Adding: the API's rules, then the record.
            let badPhone = try await browser.post("/console/clients/new", ["email": "new@example.test", "phone": "call me"])
            #expect(badPhone.status == .badRequest)
            #expect(badPhone.problem == "phone must be a phone number (digits, spaces and +)")
            #expect(badPhone.html.contains(#"value="new@example.test""#), "the form keeps what was typed")
            #expect(try await Self.stored(server, "new@example.test") == nil)
            let added = try await browser.post(
                "/console/clients/new", ["email": "New@Example.test", "firstName": "Nora", "lastName": "New", "phone": "+44 1", "notes": ""])
            #expect(added.status == .seeOther)
            let path = (added.location ?? "").replacingOccurrences(of: "?notice=client-added", with: "")
            #expect(path.hasPrefix("/console/clients/") && path != "/console/clients/")
            #expect(try await Self.stored(server, "new@example.test") == ["Nora", "New", "+44 1", nil])
            let shown = try await browser.get(try #require(added.location))
            #expect(shown.heading == "Nora New")
            #expect(shown.html.contains("Client added."))
            // The same address again: the API's 409, with a way to the existing client.
            let twice = try await browser.post("/console/clients/new", ["email": "new@example.test"])
            #expect(twice.status == .conflict)
            #expect(twice.problem == "This address is already a client of the shop")
            #expect(twice.html.contains(#"<a href="\#(path)">"#))

            // Editing (a browser sends a text area's line breaks as CRLF), then emptying a field
            // the client has and taking another client's address: the API refuses both.
            let form = [
                "email": "new@example.test", "firstName": "Nora", "lastName": "Newer", "phone": "+44 1", "notes": "Line one\r\nLine two",
                "portalEnabled": "1",
            ]
            let edited = try await browser.post(path, form)
            #expect(edited.status == .seeOther)
            #expect(try await Self.stored(server, "new@example.test") == ["Nora", "Newer", "+44 1", "Line one\nLine two"])
            let emptied = try await browser.post(path, form.merging(["firstName": ""]) { $1 })
            #expect(emptied.status == .badRequest)
            #expect(emptied.problem?.hasPrefix("firstName") == true)
            #expect(try await Self.stored(server, "new@example.test") == ["Nora", "Newer", "+44 1", "Line one\nLine two"])
            let taken = try await browser.post(path, form.merging(["email": "jane@example.test"]) { $1 })
            #expect(taken.status == .conflict)
            #expect(taken.html.contains("Open the client who has this address"))

            // The portal invitation, and signing the client out everywhere after a confirmation.
            #expect(try await browser.post(path + "/invite").status == .seeOther)
            #expect(try await client.mail(to: "new@example.test").count == 1)
            let confirmSignOut = try await browser.get(path + "/sign-out")
            #expect(confirmSignOut.status == .ok)
            #expect(confirmSignOut.html.contains(#"action="\#(path)/sign-out""#))
            #expect(try await browser.post(path + "/sign-out").location == path + "?notice=signed-out-member")

            // Deleting: a confirmation first, which changes nothing; then the client is gone.
            let confirm = try await browser.get(path + "/delete")
            #expect(confirm.status == .ok)
            #expect(confirm.heading == "Delete Nora Newer?")
            #expect(confirm.html.contains(#"<form method="post" action="\#(path)/delete" class="actions">"#))
            #expect(try await Self.stored(server, "new@example.test") != nil)
            let deleted = try await browser.post(path + "/delete")
            #expect(deleted.location == "/console/clients?notice=client-deleted")
            #expect(try await Self.stored(server, "new@example.test") == nil)
            #expect(try await browser.get(path).status == .notFound)

            // The export: the API's download, headers and all.
            let export = try await browser.get("/console/clients/export")
            #expect(export.status == .ok)
            #expect(export.headers[.contentType] == "text/csv; charset=utf-8")
            #expect(export.headers[.contentDisposition] == #"attachment; filename="clients.csv""#)
            #expect(export.headers[.cacheControl] == "no-store")
            #expect(export.html.hasPrefix("email,first_name,last_name,phone,notes,created_at\r\n"))
            #expect(export.html.contains("jane@example.test,Jane,Customer"))
        }
    }

    @Test func anEngineerIsRefusedEveryClientsPage() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let admin = try await TeamTests.token(client)
            let jane = try await ClientTests.id(client, admin, email: "jane@example.test")
            let browser = try await ConsoleBrowser.signedIn(client, DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            let home = try await browser.get("/console/account")
            #expect(home.status == .ok)
            #expect(!home.html.contains("/console/clients"), "no Clients link")
            let before = try await Self.liveClients(server)
            for path in [
                "/console/clients", "/console/clients?q=jane", "/console/clients/new", "/console/clients/import", "/console/clients/export",
                "/console/clients/\(jane)", "/console/clients/\(jane)/delete", "/console/clients/\(jane)/sign-out",
            ] {
                let page = try await browser.get(path)
                #expect(page.status == .forbidden, "GET \(path)")
                #expect(page.problem == "You do not have permission to do this", "GET \(path)")
            }
            for path in [
                "/console/clients/new", "/console/clients/\(jane)", "/console/clients/\(jane)/invite", "/console/clients/\(jane)/delete",
                "/console/clients/\(jane)/sign-out",
            ] {
                let page = try await browser.post(path, ["email": "eng@example.test", "firstName": "Eng", "portalEnabled": "1"])
                #expect(page.status == .forbidden, "POST \(path)")
            }
            let upload = try await browser.upload(
                "/console/clients/import", ["dryRun": "true"], file: ("file", "c.csv", "email\r\neng@example.test\r\n"))
            #expect(upload.status == .forbidden)
            #expect(try await Self.liveClients(server) == before)
            #expect(try await Self.stored(server, "jane@example.test") == ["Jane", "Customer", nil, nil])
            #expect(try await client.mail(to: "jane@example.test").isEmpty)
        }
    }

    @Test func aDryRunImportShowsTheBadLineAndWritesNothing() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let browser = try await ConsoleBrowser.signedIn(client)
            let form = try await browser.get("/console/clients/import")
            #expect(form.status == .ok)
            #expect(form.html.contains(#"enctype="multipart/form-data""#))
            #expect(form.html.contains(#"<input id="file" name="file" type="file" accept=".csv,text/csv""#))
            #expect(form.html.contains(#"name="dryRun" value="true" aria-describedby="dry-run-help" checked>"#), "a dry run by default")
            let csv = "email,first_name,phone\r\ngood@example.test,Good,\r\nbad@example.test,Bad,not a phone\r\njane@example.test,Janet,\r\n"
            let before = try await Self.liveClients(server)

            let dry = try await browser.upload("/console/clients/import", ["dryRun": "true"], file: ("file", "clients.csv", csv))
            #expect(dry.status == .ok)
            #expect(dry.html.contains("Dry run: nothing was written."))
            #expect(dry.html.contains("<dt>Added</dt><dd>1</dd>"))
            #expect(dry.html.contains("<dt>Updated</dt><dd>1</dd>"))
            #expect(dry.html.contains("<dt>Refused</dt><dd>1</dd>"))
            #expect(dry.html.contains("<dt>Written</dt><dd>No</dd>"))
            #expect(dry.html.contains("<tr><td>3</td><td>phone</td><td>phone must be a phone number (digits, spaces and +)</td></tr>"))
            #expect(dry.html.contains("Import for real"))
            #expect(dry.html.contains("Choose the same file again"))
            #expect(!dry.html.contains(#"aria-describedby="dry-run-help" checked"#), "the next try is for real")
            #expect(try await Self.liveClients(server) == before)
            #expect(try await Self.stored(server, "good@example.test") == nil)
            #expect(try await Self.stored(server, "jane@example.test") == ["Jane", "Customer", nil, nil])

            // For real, all or nothing: a refused row writes nothing; with "partial" the good rows.
            let whole = try await browser.upload("/console/clients/import", [:], file: ("file", "clients.csv", csv))
            #expect(whole.html.contains("<dt>Written</dt><dd>No</dd>"))
            #expect(try await Self.stored(server, "good@example.test") == nil)
            let partial = try await browser.upload("/console/clients/import", ["partial": "true"], file: ("file", "clients.csv", csv))
            #expect(partial.html.contains("<dt>Written</dt><dd>Yes</dd>"))
            #expect(try await Self.stored(server, "good@example.test") == ["Good", nil, nil, nil])
            #expect(try await Self.stored(server, "jane@example.test") == ["Janet", "Customer", nil, nil])
            #expect(try await Self.stored(server, "bad@example.test") == nil)

            // A file the import cannot read as a whole: the API's message, nothing written.
            let unknown = try await browser.upload("/console/clients/import", [:], file: ("file", "x.csv", "email,shoe_size\r\nx@example.test,9\r\n"))
            #expect(unknown.status == .badRequest)
            #expect((unknown.problem ?? "").hasPrefix(#"Unknown column "shoe_size""#))
            let nothing = try await browser.upload("/console/clients/import", [:], file: ("file", "", ""))
            #expect(nothing.status == .badRequest)
            #expect(nothing.problem == "Choose a CSV file to import.")
            #expect(try await Self.stored(server, "x@example.test") == nil)
            // A file larger than the import's own limit is not read.
            let large = "email\r\n" + String(repeating: "x", count: CSVFile.maxBytes)
            let tooLarge = try await browser.upload("/console/clients/import", [:], file: ("file", "large.csv", large))
            #expect(tooLarge.status == .contentTooLarge)
            #expect(tooLarge.problem == "The file is larger than 10 MiB, the most this form takes. Split it.")
        }
    }

    @Test func aFormFromElsewhereChangesNothing() async throws {
        let server = try await TestServer()
        try await server.run(.live) { client in
            let browser = try await ConsoleBrowser.signedIn(client)
            let before = try await Self.liveClients(server)
            let fields = ["email": "csrf@example.test"]
            let refused = [
                try await browser.post("/console/clients/new", fields, csrf: false),
                try await browser.post("/console/clients/new", fields, headers: [.origin: "https://evil.example"]),
                try await browser.post("/console/clients/new", fields.merging(["csrf": "forged"]) { $1 }, csrf: false),
                try await browser.upload("/console/clients/import", [:], file: ("file", "c.csv", "email\r\ncsrf@example.test\r\n"), csrf: false),
                try await browser.upload(
                    "/console/clients/import", [:], file: ("file", "c.csv", "email\r\ncsrf@example.test\r\n"),
                    headers: [.origin: "https://evil.example"]),
            ]
            for page in refused { #expect(page.status == .forbidden) }
            // Without a session, an upload is not read (even with the token its cookie would
            // have): the browser is sent to sign in.
            let stranger = ConsoleBrowser(client), forged = String(repeating: "a", count: 43)
            stranger.set(cookie: ConsoleCookies.session, forged)
            let signedOut = try await stranger.upload(
                "/console/clients/import", ["csrf": ConsoleCookies.csrfToken(for: forged)], file: ("file", "c.csv", "email\r\ncsrf@example.test\r\n"))
            #expect(signedOut.status == .seeOther && signedOut.location == "/console/sign-in")
            #expect(try await Self.liveClients(server) == before)
            #expect(try await Self.stored(server, "csrf@example.test") == nil)
        }
    }
}
