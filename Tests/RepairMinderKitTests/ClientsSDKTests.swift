import Foundation
import RepairMinderKit
import RepairMinderModels
import RepairMinderServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `ClientsClient` (docs/API.md §14): what it puts on the wire (a raw CSV body, the list's
/// query, the CSV export's `Accept`) and how it reads a 409 `CLIENT_EXISTS`, against a scripted
/// transport; then every call against the real server.
@Suite struct ClientsSDKTests {
    static let base = URL(string: "https://rm.example")!

    /// A staff member signed in, on a transport that answers from a script.
    static func clients(_ transport: ScriptedTransport) throws -> ClientsClient {
        let store = InMemoryCredentialStore()
        try store.saveStaff(
            StaffCredentials(accessToken: "staff-access-token", refreshToken: "staff-refresh-token", accessTokenExpiresAt: Date().addingTimeInterval(3600)))
        return ClientsClient(api: APIClient(baseURL: base, store: store, transport: transport, retry: .none))
    }

    static let record = """
        {"id":"c-1","email":"ada@example.com","first_name":"Ada","last_name":"Lovelace","name":"Ada Lovelace","phone":null,
         "notes":null,"portal_enabled":1,"last_portal_login":null,"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}
        """

    // MARK: On the wire

    @Test func anImportSendsTheFileAsItsRawBytesWithItsMediaType() async throws {
        let transport = ScriptedTransport { _ in
            (200, #"{"success":true,"data":{"created":1,"updated":0,"unchanged":0,"failed":1,"errors":[{"line":3,"column":"email","message":"email must be a valid email address"}],"written":false}}"#, [:])
        }
        let csv = "email,first_name\r\nada@example.com,Ada\r\nnot-an-address,Bob\r\n"
        let report = try await Self.clients(transport).importCSV(CSVFile(text: csv), dryRun: true, partial: true)
        #expect(report == ClientImportReport(
            created: 1, updated: 0, unchanged: 0, failed: 1,
            errors: [ClientImportProblem(line: 3, column: "email", message: "email must be a valid email address")], written: false))
        let request = try #require(transport.requests.last)
        #expect(request.httpMethod == "POST")
        #expect(request.url?.path == "/api/clients/import")
        #expect(request.url?.query == "dryRun=true&partial=true")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "text/csv")
        #expect(request.httpBody == Data(csv.utf8))

        // Neither flag: no query; the bytes as given.
        _ = try await Self.clients(transport).importCSV(Data(csv.utf8))
        #expect(transport.requests.last?.url?.query == nil)
        #expect(transport.requests.last?.httpBody == Data(csv.utf8))
        // JSON bodies are still JSON.
        _ = try? await Self.clients(transport).create(ClientCreateRequest(email: "ada@example.com"))
        #expect(transport.requests.last?.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test func aFileTheServerWouldRefuseIsNotSent() async throws {
        let transport = ScriptedTransport { _ in (500, "not expected", [:]) }
        let clients = try Self.clients(transport)
        let large = CSVFile(text: "email\n" + String(repeating: "a", count: CSVFile.maxBytes))
        await #expect(throws: APIError.self) { _ = try await clients.importCSV(large) }
        // Not UTF-8.
        await #expect(throws: APIError.invalidRequest("The file must be UTF-8 text")) { _ = try await clients.importCSV(Data([0x65, 0xFF, 0xFE])) }
        #expect(transport.requests.isEmpty)
    }

    @Test func aTakenAddressThrowsTheExistingClientsId() async throws {
        let answers = Answers([
            (409, #"{"success":false,"error":"This address is already a client of the shop","code":"CLIENT_EXISTS","clientId":"c-42"}"#, [:]),
            (409, #"{"success":false,"error":"This address is already a client of the shop","code":"CLIENT_EXISTS"}"#, [:]),
            (409, #"{"success":false,"error":"The portal is switched off for this client","code":"CLIENT_PORTAL_DISABLED"}"#, [:]),
        ])
        let clients = try Self.clients(ScriptedTransport { _ in try answers.next() })
        do {
            _ = try await clients.create(ClientCreateRequest(email: "ADA@example.com"))
            Issue.record("a taken address was added")
        } catch let error as APIError {
            #expect(error == .clientExists(clientId: "c-42", message: "This address is already a client of the shop"))
            #expect(error.code == .clientExists)
            #expect(error.message == "This address is already a client of the shop")
        }
        // A server that does not name the client: the same case, without an id.
        await #expect(throws: APIError.clientExists(clientId: nil, message: "This address is already a client of the shop")) {
            _ = try await clients.update(id: "c-1", ClientUpdateRequest(email: "ada@example.com"))
        }
        // Another 409 is the server's refusal as before.
        await #expect(throws: APIError.server(status: 409, message: "The portal is switched off for this client", code: .clientPortalDisabled)) {
            try await clients.invite(id: "c-1")
        }
    }

    @Test func theListAndTheSearchSendTheirQueries() async throws {
        let transport = ScriptedTransport { request in
            request.url?.path == "/api/clients/search"
                ? (200, #"{"success":true,"data":[\#(Self.record)]}"#, [:])
                : (200, #"{"success":true,"data":[\#(Self.record)],"pagination":{"page":2,"limit":1,"total":3,"totalPages":3}}"#, [:])
        }
        let clients = try Self.clients(transport)
        let page = try await clients.list(page: 2, limit: 1, query: "ada", sort: .name)
        #expect(page.items.map(\.name) == ["Ada Lovelace"])
        #expect(page.items.first?.portalEnabled == true)
        #expect(page.pagination.totalPages == 3)
        #expect(transport.requests.last?.url?.query == "page=2&limit=1&q=ada&sort=name")
        let next = try #require(try await clients.nextPage(after: page))
        #expect(next.pagination.page == 2)  // as scripted
        #expect(transport.requests.last?.url?.query == "page=3&limit=1&q=ada&sort=name")
        _ = try await clients.list()
        #expect(transport.requests.last?.url?.query == "page=1&sort=-created_at")

        #expect(try await clients.search("+44 7700", limit: 3).map(\.id) == ["c-1"])
        let search = try #require(transport.requests.last?.url)
        #expect(search.path == "/api/clients/search")
        #expect(URLComponents(url: search, resolvingAgainstBaseURL: false)?.queryItems == [
            URLQueryItem(name: "q", value: "+44 7700"), URLQueryItem(name: "limit", value: "3"),
        ])
    }

    @Test func theExportAsksForCSVAndWritesItsBytesToTheFile() async throws {
        let csv = "email,first_name,last_name,phone,notes,created_at\r\nada@example.com,Ada,,,\"'=1+1\",2026-01-01T00:00:00Z\r\n"
        let transport = ScriptedTransport { _ in (200, csv, ["Content-Type": "text/csv; charset=utf-8"]) }
        let clients = try Self.clients(transport)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("clients-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("old".utf8).write(to: file)
        #expect(try await clients.export(to: file) == Data(csv.utf8).count)
        #expect(try Data(contentsOf: file) == Data(csv.utf8))
        let request = try #require(transport.requests.last)
        #expect(request.httpMethod == "GET")
        #expect(request.url?.path == "/api/clients/export")
        #expect(request.value(forHTTPHeaderField: "Accept") == "text/csv, application/json")
        #expect(try await clients.export() == Data(csv.utf8))
    }

    // MARK: Against the server

    static func signedIn(_ server: LiveServer, _ url: URL, _ email: String, _ password: String) async throws -> ClientsClient {
        let auth = await StaffAuth(api: server.client(url))
        try await auth.login(email: email, password: password)
        try await auth.requestEmailCode()
        try await auth.verifySecondFactor(code: try await server.latestCode(to: email))
        return ClientsClient(api: await auth.api)
    }

    @Test func staffAddFindChangeAndDeleteClients() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let clients = try await Self.signedIn(server, url, DemoFixtures.adminEmail, DemoFixtures.adminPassword)
            // The demo's clients were added on the wall clock, after the test clock started: the
            // new ones come later than them on the server's clock.
            server.clock.advance(by: max(0, Date().timeIntervalSince(server.clock.date)) + 1)
            let ada = try await clients.create(
                ClientCreateRequest(email: " Ada.Lovelace@Example.com ", firstName: "Ada", lastName: "Lovelace", phone: "+44 7700 900123",
                                    notes: "First line\nSecond line"))
            #expect(ada.email == "ada.lovelace@example.com")
            #expect(ada.name == "Ada Lovelace")
            #expect(ada.portalEnabled)
            #expect(ada.notes == "First line\nSecond line")
            #expect(try await clients.client(id: ada.id) == ada)

            // The address is the shop's once, whatever its case: the existing client's id.
            do {
                _ = try await clients.create(ClientCreateRequest(email: "ADA.LOVELACE@example.com"))
                Issue.record("a taken address was added")
            } catch let error as APIError {
                #expect(error.code == .clientExists)
                #expect(error == .clientExists(clientId: ada.id, message: error.message), "\(error)")
            }

            server.clock.advance(by: 1)
            let bob = try await clients.create(ClientCreateRequest(email: "bob@example.com", firstName: "Bob", lastName: "Babbage"))
            #expect(try await clients.search("ada").map(\.id) == [ada.id])
            #expect(try await clients.search("447700").map(\.id) == [ada.id])
            #expect(try await clients.search("b", limit: 1).count == 1)
            let matching = try await clients.list(query: "lov")
            #expect(matching.items.map(\.id) == [ada.id])
            #expect(matching.pagination.total == 1)
            // Newest first by default; by name on request (with the demo's Jane and Max).
            let newest = try await clients.list(limit: 2)
            #expect(newest.items.map(\.id) == [bob.id, ada.id])
            #expect(newest.hasNextPage)
            // By name: the display name's order, or the last name's (the contract says "name").
            let byName = try await clients.list(limit: 100, sort: .name).items
            let names = byName.map { $0.name.lowercased() }, lastNames = byName.map { ($0.lastName ?? $0.name).lowercased() }
            #expect(names == names.sorted() || lastNames == lastNames.sorted(), "\(names)")
            #expect(Set(byName.map(\.id)) == Set(try await clients.list(limit: 100).items.map(\.id)))
            let second = try #require(try await clients.nextPage(after: newest))
            #expect(!second.items.contains { $0.id == ada.id || $0.id == bob.id })

            let changed = try await clients.update(id: ada.id, ClientUpdateRequest(firstName: "Augusta", phone: "020 7946 0000", portalEnabled: false))
            #expect(changed.firstName == "Augusta")
            #expect(changed.lastName == "Lovelace")
            #expect(!changed.portalEnabled)
            await #expect(throws: APIError.self) { _ = try await clients.update(id: bob.id, ClientUpdateRequest(email: "ada.lovelace@example.com")) }

            // Deleted: gone, and the address may be added again.
            try await clients.delete(id: ada.id)
            do {
                _ = try await clients.client(id: ada.id)
                Issue.record("a deleted client was found")
            } catch let error as APIError {
                #expect(error.code == .notFound)
            }
            #expect(try await clients.create(ClientCreateRequest(email: "ada.lovelace@example.com")).id != ada.id)
        }
    }

    @Test func anEngineerIsRefusedWithTheServersWords() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let clients = try await Self.signedIn(server, url, DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            for call in [{ _ = try await clients.list() }, { _ = try await clients.search("jane") },
                         { _ = try await clients.create(ClientCreateRequest(email: "x@example.com")) }] as [@Sendable () async throws -> Void] {
                do {
                    try await call()
                    Issue.record("an engineer read or changed the clients")
                } catch let error as APIError {
                    #expect(error.code == .forbidden)
                    #expect(error.message == "You do not have permission to do this")
                }
            }
        }
    }

    @Test func anImportIsDryRunAllOrNothingOrPartialAndAnExportImportsBackUnchanged() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let clients = try await Self.signedIn(server, url, DemoFixtures.adminEmail, DemoFixtures.adminPassword)
            let file = CSVFile(text: """
                email,first_name,last_name,phone,notes\r
                grace@example.com,Grace,Hopper,+1 555 0100,\r
                not-an-address,Bad,Row,,\r
                jane@example.test,Jane,Renamed,,"Line one\nLine two"\r

                """)
            let dryRun = try await clients.importCSV(file, dryRun: true)
            #expect(dryRun.created == 1 && dryRun.updated == 1 && dryRun.failed == 1, "\(dryRun)")
            #expect(!dryRun.written)
            let problem = try #require(dryRun.errors.first)
            #expect(problem.line == 3)
            #expect(problem.column == "email")
            #expect(try await clients.search("grace").isEmpty)

            // All or nothing: a refused row stops the others.
            let refused = try await clients.importCSV(file)
            #expect(!refused.written)
            #expect(refused.errors.map(\.line) == [3])
            #expect(try await clients.search("grace").isEmpty)

            let partial = try await clients.importCSV(file, partial: true)
            #expect(partial.written)
            #expect(partial.created == 1 && partial.updated == 1 && partial.failed == 1, "\(partial)")
            #expect(try await clients.search("grace").first?.phone == "+1 555 0100")
            let jane = try #require(try await clients.search("jane").first)
            #expect(jane.lastName == "Renamed")
            #expect(jane.notes == "Line one\nLine two")

            // A formula-looking cell is exported so that a spreadsheet does not run it.
            _ = try await clients.create(ClientCreateRequest(email: "formula@example.com", firstName: "=HYPERLINK(\"x\")"))
            let exported = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString).csv")
            defer { try? FileManager.default.removeItem(at: exported) }
            try await clients.export(to: exported)
            let text = try String(contentsOf: exported, encoding: .utf8)
            #expect(text.hasPrefix("email,first_name,last_name,phone,notes,created_at\r\n"), "\(text.prefix(80))")
            #expect(text.contains("grace@example.com"))
            #expect(!text.contains(",=HYPERLINK"), "\(text)")

            // Round trip: the export imported back changes nothing.
            let back = try await clients.importCSV(try Data(contentsOf: exported))
            #expect(back.created == 0 && back.updated == 0 && back.failed == 0, "\(back)")
            #expect(back.unchanged == (try await clients.list(limit: 100).pagination.total))
        }
    }

    @Test func aClientIsInvitedToThePortalAndTheirSessionsAreEnded() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let clients = try await Self.signedIn(server, url, DemoFixtures.adminEmail, DemoFixtures.adminPassword)
            let jane = try #require(try await clients.search("jane@example.test").first)
            #expect(try await clients.sessions(id: jane.id).isEmpty)

            // Jane signs in to the portal on her phone.
            let customer = await CustomerAuth(api: server.client(url))
            try await customer.requestCode(email: jane.email)
            try await customer.verify(code: try await server.latestCode(to: jane.email))
            let sessions = try await clients.sessions(id: jane.id)
            #expect(sessions.count == 1)

            // The shop invites her: one mail naming the shop, then not again within the minute.
            let before = try await Mailbox.messages(to: jane.email, settings: server.settings).count
            let sent = try await clients.invite(id: jane.id)
            #expect(!sent.message.isEmpty)
            let mails = try await Mailbox.messages(to: jane.email, settings: server.settings)
            #expect(mails.count == before + 1)
            #expect(mails.last?.text.contains("Acme Repairs") == true)
            do {
                try await clients.invite(id: jane.id)
                Issue.record("a second invitation within the minute was sent")
            } catch APIError.rateLimited(let retryAfter, _) {
                #expect((retryAfter ?? 0) > 0)
            }

            // Signed out from the shop: her token is refused.
            #expect(try await clients.signOut(id: jane.id) == 1)
            #expect(try await clients.sessions(id: jane.id).isEmpty)
            await #expect(throws: APIError.self) { _ = try await customer.api.send(Routes.customerAuth.me) }

            // A client whose portal is off is not invited.
            _ = try await clients.update(id: jane.id, ClientUpdateRequest(portalEnabled: false))
            server.clock.advance(by: 120)
            do {
                try await clients.invite(id: jane.id)
                Issue.record("a client whose portal is off was invited")
            } catch let error as APIError {
                #expect(error.code == .clientPortalDisabled, "\(error)")
            }
        }
    }
}

/// docs/sdk.md's clients sample, kept here so it is compiled: keep the two in step.
func clientsSample(api: APIClient, csvURL: URL, folder: URL) async throws {
    // docs/sdk.md sample begins
    let clients = ClientsClient(api: api)
    do {
        _ = try await clients.create(ClientCreateRequest(email: "jane@example.com", firstName: "Jane"))
    } catch APIError.clientExists(let existing?, _) {
        print("Already a client: \(try await clients.client(id: existing).name)")
    }
    let report = try await clients.importCSV(try Data(contentsOf: csvURL), dryRun: true)
    for problem in report.errors { print("line \(problem.line): \(problem.message)") }
    try await clients.export(to: folder.appendingPathComponent("clients.csv"))
    // docs/sdk.md sample ends
}
