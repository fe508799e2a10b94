import Foundation
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import TestSupport
import Testing

@testable import RepairMinderServer

/// The clients' CSV import and export (docs/API.md §14).
@Suite struct ClientCSVTests {
    /// Posts `text` to the import with `query` (`?dryRun=true`, ...).
    static func importCSV(
        _ client: TestClient, _ token: String, _ text: String, query: String = "", contentType: String = "text/csv; charset=utf-8"
    ) async throws -> Reply {
        try await client.send(.post, "/api/clients/import" + query, json: text, bearer: token, headers: [.contentType: contentType])
    }

    /// The export's status, headers and text.
    static func export(_ client: TestClient, _ token: String) async throws -> (HTTPResponse.Status, HTTPFields, String) {
        try await client.client.execute(
            uri: "/api/clients/export", method: .get, headers: [.authorization: "Bearer \(token)", .userAgent: TestClient.browser]
        ) { ($0.status, $0.headers, String(buffer: $0.body)) }
    }

    /// The shop's clients, by address, as the list answers them.
    static func snapshot(_ client: TestClient, _ token: String) async throws -> [String: String] {
        var rows: [String: String] = [:]
        for client in try await ClientTests.all(client, token, pages: 2) {
            let email = client["email"] as? String ?? ""
            rows[email] = ["first_name", "last_name", "phone", "notes", "updated_at"].map { "\(client[$0] ?? "")" }.joined(separator: "|")
        }
        return rows
    }

    @Test func anExportEscapesFormulasAndImportsBackUnchanged() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await TeamTests.token(client)
            for body: [String: Any] in [
                ["email": "formula@example.com", "firstName": "=HYPERLINK(\"http://evil\")", "lastName": "@SUM(A1)", "phone": "+44 7700 900123",
                 "notes": "-2+3\nsecond line, with a comma and \"quotes\""],
                ["email": "quote@example.com", "firstName": "'=already", "lastName": "O'Brien"],
            ] {
                #expect(try await ClientTests.send(client, .post, "/api/clients", admin, body).status == .created)
            }
            let (status, headers, text) = try await Self.export(client, admin)
            #expect(status == .ok)
            #expect(headers[.contentType] == "text/csv; charset=utf-8")
            #expect(headers[.contentDisposition]?.contains("clients.csv") == true)
            let lines = text.components(separatedBy: "\r\n")
            #expect(lines.first == "email,first_name,last_name,phone,notes,created_at")
            #expect(text.contains("formula@example.com,\"'=HYPERLINK(\"\"http://evil\"\")\",'@SUM(A1),'+44 7700 900123,\"'-2+3\nsecond line, with a comma and \"\"quotes\"\"\""))
            #expect(text.contains("quote@example.com,''=already,O'Brien,"))
            #expect(!lines.dropFirst().contains { $0.hasPrefix("=") || $0.contains(",=") || $0.contains(",+") || $0.contains(",@") })
            // The round trip: every row is unchanged, and nothing is written.
            let before = try await Self.snapshot(client, admin)
            server.clock.advance(by: 5)
            let imported = try await Self.importCSV(client, admin, text)
            #expect(imported.status == .ok)
            #expect(imported.data["unchanged"] as? Int == before.count)
            #expect(imported.data["created"] as? Int == 0)
            #expect(imported.data["updated"] as? Int == 0)
            #expect(imported.data["failed"] as? Int == 0)
            #expect(try await Self.snapshot(client, admin) == before)
            // An engineer may not export.
            let engineer = try await TeamTests.token(client, DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            #expect(try await Self.export(client, engineer).0 == .forbidden)
            // A bulk read of personal data is an audit event of the admin's, once per export;
            // the refused one is none.
            let events = try TeamTests.list(try await client.send(.get, "/api/auth/activity?limit=100", bearer: admin))
                .filter { $0["type"] as? String == "clients_exported" }
            #expect(events.count == 1)
            #expect((events.first?["actor"] as? [String: Any])?["email"] as? String == DemoFixtures.adminEmail)
        }
    }

    @Test func anImportCreatesAndUpdatesByAddressInADryRunOrForReal() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await TeamTests.token(client)
            let file = """
                Email,first_name,last_name,phone,notes\r
                new1@example.com,New,One,,\r
                JANE@example.test,Janet,,+44 1,\r
                multi@example.test,Max,Multi,,\r
                \r
                new2@example.com,,,,"two
                lines"\r

                """
            let before = try await Self.snapshot(client, admin)
            let dry = try await Self.importCSV(client, admin, file, query: "?dryRun=true")
            #expect(dry.status == .ok)
            #expect(dry.data["created"] as? Int == 2)
            #expect(dry.data["updated"] as? Int == 1)
            #expect(dry.data["unchanged"] as? Int == 1)
            #expect(dry.data["written"] as? Bool == false)
            #expect(try await Self.snapshot(client, admin) == before)
            let real = try await Self.importCSV(client, admin, file)
            #expect(real.data["written"] as? Bool == true)
            let jane = try await ClientTests.send(client, .get, "/api/clients/\(try await ClientTests.id(client, admin, email: "jane@example.test"))", admin)
            // Empty cells keep the client's values.
            #expect(jane.string("first_name") == "Janet")
            #expect(jane.string("last_name") == "Customer")
            #expect(jane.string("phone") == "+44 1")
            let new2 = try await ClientTests.send(client, .get, "/api/clients/\(try await ClientTests.id(client, admin, email: "new2@example.com"))", admin)
            #expect(new2.string("notes") == "two\nlines")
            let events = try TeamTests.list(try await client.send(.get, "/api/auth/activity?limit=100", bearer: admin))
                .filter { $0["type"] as? String == "clients_imported" }
            #expect(events.count == 1)
            #expect(events.first?["detail"] as? [String: String] == ["created": "2", "updated": "1", "unchanged": "1", "failed": "0"])
        }
    }

    /// A refused row stops the whole file unless `partial=true`; the report names each
    /// refused row's line (rows may span lines) and column.
    @Test func refusedRowsAreReportedByLineAndStopTheFileUnlessPartial() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await TeamTests.token(client)
            let file = [
                "email,first_name,phone,notes", "good1@example.com,Good,,\"a note", "over two lines\"", "not-an-address,Bad,,",
                "good2@example.com,Good,call me,", "good3@example.com,Good,,", "GOOD3@example.com,Again,,", "short@example.com,Short",
                ",Nameless,,", "good4@example.com,Good,,",
            ].joined(separator: "\n")
            let before = try await Self.snapshot(client, admin)
            let whole = try await Self.importCSV(client, admin, file)
            #expect(whole.status == .ok)
            #expect(whole.data["failed"] as? Int == 5)
            #expect(whole.data["written"] as? Bool == false)
            let errors = try #require(whole.data["errors"] as? [[String: Any]])
            #expect(errors.map { $0["line"] as? Int } == [4, 5, 7, 8, 9])
            #expect(errors.map { $0["column"] as? String } == ["email", "phone", "email", nil, "email"])
            #expect(errors[2]["message"] as? String == "This address is on line 6 already")
            #expect(errors[3]["message"] as? String == "The row has 2 cells; the header has 4")
            #expect(errors[4]["message"] as? String == "email is required")
            #expect(try await Self.snapshot(client, admin) == before)
            let partial = try await Self.importCSV(client, admin, file, query: "?partial=true")
            #expect(partial.data["created"] as? Int == 3)
            #expect(partial.data["written"] as? Bool == true)
            #expect(try await Self.snapshot(client, admin).count == before.count + 3)
            try await ClientTests.expectCounted(server, client, admin)
        }
    }

    /// Files that cannot be read at all are refused whole, and change nothing.
    @Test func unreadableFilesAreRefused() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let admin = try await TeamTests.token(client)
            let engineer = try await TeamTests.token(client, DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            let before = try await Self.snapshot(client, admin)
            for (file, message) in [
                ("", "The file is empty: its first line must name the columns (email,first_name,last_name,phone,notes,created_at)"),
                ("email,nickname\r\na@example.com,A", "Unknown column \"nickname\": the columns are email, first_name, last_name, phone, notes, created_at"),
                ("email,Email\r\na@example.com,b@example.com", "The column email is there twice"),
                ("first_name\r\nAda", "The file has no email column"),
                ("email\r\n" + String(repeating: "x@example.com\r\n", count: 50_001), "The file has more than 50000 rows: split it"),
            ] {
                try await Self.importCSV(client, admin, file).expectFailure(.badRequest, "VALIDATION_ERROR", message)
            }
            try await Self.importCSV(client, admin, "email\r\na@example.com", contentType: "application/json")
                .expectFailure(.unsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE", "Content-Type must be text/csv")
            let tooLarge = "email,notes\r\n" + String(repeating: "a", count: CSVFile.maxBytes)
            try await Self.importCSV(client, admin, tooLarge).expectFailure(.contentTooLarge, "PAYLOAD_TOO_LARGE")
            let notUTF8 = try await client.client.execute(
                uri: "/api/clients/import", method: .post,
                headers: [.authorization: "Bearer \(admin)", .contentType: "text/csv", .userAgent: TestClient.browser],
                body: ByteBuffer(bytes: Array("email\r\n".utf8) + [0xff, 0xfe, 0x41])
            ) { ($0.status, String(buffer: $0.body)) }
            #expect(notUTF8.0 == .badRequest)
            #expect(notUTF8.1.contains(#""code":"VALIDATION_ERROR""#) && notUTF8.1.contains("The file must be UTF-8 text"))
            // A quote left open takes the rest of the file into its cell: that row is refused.
            let open = try await Self.importCSV(client, admin, "email,first_name,phone\r\na@example.com,\"Ada,\r\nb@example.com,Bo,1\r\n")
            #expect(open.data["failed"] as? Int == 1)
            #expect((open.data["errors"] as? [[String: Any]])?.first?["line"] as? Int == 2)
            try await Self.importCSV(client, engineer, "email\r\na@example.com").expectFailure(.forbidden, "FORBIDDEN")
            #expect(try await Self.snapshot(client, admin) == before)
        }
    }
}
