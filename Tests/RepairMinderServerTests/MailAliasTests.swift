import Foundation
import RepairMinderModels
import Testing

@testable import RepairMinderServer

/// Issue 25, item 2: an address with a display name or a comment (`x1<victim@example.org>`)
/// used to pass the email rule, got a budget of its own per alias, and was re-parsed by the SMTP
/// client into the victim's mailbox: a relay. Every endpoint that mails now takes only a plain
/// address, and the mail path hands SMTP the stored address as it is.
@Suite struct MailAliasTests {
    static let aliases = [
        "x1<victim@example.org>", "\"x\"@example.org", "victim@example.org (x)", "a,victim@example.org",
        "a;b@example.org", "a:b@example.org", "Victim <victim@example.org>",
    ]

    /// Each mailing endpoint, with a body that carries `email`.
    static let endpoints: [(path: String, body: @Sendable (String) -> [String: String])] = [
        ("/api/auth/register", { ["companyName": "Spam Inc", "firstName": "A", "lastName": "B", "email": $0, "password": "violet kettle 1987 drum"] }),
        ("/api/auth/magic-link/request", { ["email": $0] }),
        ("/api/customer/auth/request-magic-link", { ["email": $0] }),
        ("/api/auth/password/forgot", { ["email": $0] }),
    ]

    @Test(arguments: MailAliasTests.aliases)
    func anAliasIsRefusedEverywhereAndNothingIsQueued(_ alias: String) async throws {
        let server = try await TestServer()
        try await server.run { client in
            for endpoint in Self.endpoints {
                try await client.post(endpoint.path, endpoint.body(alias))
                    .expectFailure(.badRequest, "VALIDATION_ERROR", "email must be a valid email address")
            }
            try await client.post("/auth/forgot-password", ["email": alias])
                .expectREKIFailure(.badRequest, "email must be a valid email address")
            try await client.post("/auth/register", ["email": alias, "password": "violet kettle 1987 drum"])
                .expectREKIFailure(.badRequest, "email must be a valid email address")
            #expect(try await server.withDatabase { try await $0.count("mail_queue") } == 0)
        }
    }

    /// The mail path never looks for a mailbox inside what it was given.
    @Test func theSMTPPathTakesOnlyAPlainAddress() throws {
        #expect(try MailAddress(recipient: "ada@acme.test").address == "ada@acme.test")
        for alias in Self.aliases + [" ada@acme.test", "ada@acme.test\r\nBcc: x@y.z"] {
            #expect(throws: MailFormatError.self, "\(alias.debugDescription)") { try MailAddress(recipient: alias) }
        }
        let message = MailMessage(to: "x1<victim@example.org>", subject: "s", text: "t", sentAt: "2026-11-24T00:00:00Z")
        #expect(throws: MailFormatError.self) {
            try MailComposer.compose(
                message, from: MailAddress(parsing: "Repair Minder <no-reply@acme.test>"), date: Date(), messageID: "m@acme.test",
                boundary: "b")
        }
    }

    /// A shop's name is whatever its registrant typed: it goes in the body, never the subject.
    @Test func aShopNameNeverReachesASubjectLine() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let name = "Cheap pills at example dot com"
            let body = ["companyName": name, "firstName": "A", "lastName": "B", "email": "new@fixit.test", "password": "violet kettle 1987 drum"]
            #expect(try await client.post("/api/auth/register", body).status == .created)
            let mail = try #require(try await client.mail(to: "new@fixit.test").last)
            #expect(!mail.subject.contains(name))
            #expect(mail.text.contains(name))
            _ = try await client.customerSignIn("jane@example.test")
            for message in try await client.mail(to: "jane@example.test") { #expect(!message.subject.contains("Acme")) }
        }
    }
}
