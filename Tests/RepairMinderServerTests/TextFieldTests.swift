import Foundation
import Hummingbird
import Logging
import HummingbirdTesting
import RepairMinderModels
import TestSupport
import Testing

@testable import RepairMinderServer

/// Issue 36, item 1: text is text (docs/API.md §1). Every free-text field refuses control, bidi
/// and byte-order-mark characters and nothing changes; tokens and ids take visible ASCII only.
/// Before the fix, a shop named with ESC and a bidi override was registered, and a device token
/// "a\u{0}b" was answered 200 and listed as "a".
@Suite struct TextFieldTests {
    /// One of each forbidden class, inside a value that is otherwise fine.
    static let forbidden: [(name: String, character: String)] = [
        ("NUL", "\u{0}"), ("BEL", "\u{7}"), ("ESC", "\u{1b}"), ("line feed", "\n"), ("tab", "\t"), ("DEL", "\u{7f}"),
        ("C1 CSI", "\u{9b}"), ("RLO", "\u{202e}"), ("LRE", "\u{202a}"), ("FSI", "\u{2068}"), ("PDI", "\u{2069}"), ("BOM", "\u{feff}"),
        ("ALM", "\u{61c}"), ("RLM", "\u{200f}"), ("zero-width space", "\u{200b}"), ("line separator", "\u{2028}"),
        ("word joiner", "\u{2060}"), ("interlinear annotation", "\u{fff9}"),
    ]

    @Test func theTextRuleRefusesEachForbiddenClassAndTheDocumentSaysTheSame() throws {
        let rule = FieldRules.text(maxLength: 100)
        guard case .pattern(let pattern, _) = rule.content else {
            Issue.record("the text rule has no pattern")
            return
        }
        // ICU here, as Python's re and ECMA-262 read the document's pattern.
        let expression = try NSRegularExpression(pattern: pattern)
        func documentTakes(_ value: String) -> Bool {
            expression.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) != nil
        }
        for (name, character) in Self.forbidden {
            let value = "Evil\(character)Shop"
            #expect(throws: FieldProblem("companyName must not contain control characters, invisible or bidirectional formatting characters"), "\(name)") {
                try rule.check(value, "companyName")
            }
            #expect(!documentTakes(value), "\(name)")
        }
        // Whitespace around is dropped, as before; inside, a space is text.
        #expect(try rule.check("  Fixit Phones\n", "companyName") == "Fixit Phones")
        #expect(documentTakes("  Fixit Phones\n"))
        #expect(throws: FieldProblem("companyName is required")) { try rule.check(" \t ", "companyName") }
        // NFC: a decomposed é is handed on composed.
        #expect(try rule.check("Cafe\u{301}", "companyName") == "Caf\u{e9}")
        // A multi-line field takes line feeds, and nothing else of those.
        let note = FieldRules.text(maxLength: 2000, multiline: true)
        #expect(try note.check("first line\nsecond line", "notes") == "first line\nsecond line")
        #expect(throws: FieldProblem.self) { try note.check("first\u{1b}[2J", "notes") }
        #expect(throws: FieldProblem.self) { try note.check("first\r\nsecond", "notes") }
    }

    @Test func tokensAndIdsTakeVisibleASCIIOnly() throws {
        for value in ["a\u{0}b", "\u{0}", "a b", "tok\u{e9}n", "a\u{202e}b", "a\u{7f}"] {
            #expect(throws: FieldProblem("deviceToken must be printable ASCII characters without spaces"), "\(value.debugDescription)") {
                try FieldRules.deviceToken.check(value, "deviceToken")
            }
        }
        #expect(try FieldRules.deviceToken.check(" apns-token:1/x+y= ", "deviceToken") == "apns-token:1/x+y=")
        #expect(try FieldRules.identifier.check("2f1c-…".replacingOccurrences(of: "…", with: "x"), "userId") == "2f1c-x")
    }

    /// Registration: the shop's and the person's names.
    @Test(arguments: ["companyName", "firstName", "lastName"])
    func registrationRefusesEachForbiddenClass(field: String) async throws {
        let server = try await TestServer()
        try await server.run { client in
            for (name, character) in Self.forbidden {
                var body = RegistrationTests.body()
                body[field] = "Evil\(character)]0;TITLE"
                let reply = try await client.post("/api/auth/register", body)
                reply.expectFailure(
                    .badRequest, "VALIDATION_ERROR", "\(field) must not contain control characters, invisible or bidirectional formatting characters")
                #expect(reply.status == .badRequest, "\(field) with \(name)")
            }
            #expect(try await server.withDatabase { try await $0.count("pending_registrations") } == 0)
            #expect(try await server.withDatabase { try await $0.count("companies", where: "name LIKE 'Evil%'") } == 0)
            #expect(try await client.mail(to: RegistrationTests.email).isEmpty)
        }
    }

    @Test func aDeviceTokenWithANULIsRefusedNotTruncated() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            for bad in [#"a\u0000b"#, #"\u0000"#, #"a\u001b[2Jb"#, #"a\u202eb"#, "a b"] {
                let reply = try await PushTests.register(client, bad, bearer: token)
                reply.expectFailure(.badRequest, "VALIDATION_ERROR", "deviceToken must be printable ASCII characters without spaces")
            }
            #expect(try await server.withDatabase { try await $0.count("device_tokens") } == 0)
            let list = try await client.send(.get, "/api/user/device-tokens", bearer: token)
            #expect((list.json["data"] as? [Any])?.count == 0)
        }
    }

    @Test func aPasskeyNameWithAnEscapeIsRefusedAndNothingIsKept() async throws {
        let server = try await PasskeyTests.server()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            for (name, character) in Self.forbidden {
                server.clock.advance(by: 30)  // within the 10 enrolments a minute
                let reply = try await PasskeyTests.enrol(
                    client, token: token, SoftwarePasskeyAuthenticator(origin: PasskeyTests.site), name: "Laptop\(character)[31m")
                reply.expectFailure(.badRequest, "VALIDATION_ERROR", "name must not contain control characters, invisible or bidirectional formatting characters")
                #expect(reply.status == .badRequest, "\(name)")
            }
            #expect(try await PasskeyTests.passkeyCount(server) == 0)
        }
    }

    /// What a stored User-Agent says is kept escaped: a header cannot be refused like a field.
    /// (HTTP takes no C0 control in a header; C1 and bidi characters arrive as UTF-8.)
    @Test func aUserAgentIsStoredEscaped() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let agent = "Evil\u{9b}2J\u{202e}txt.exe"
            let signedIn = try await client.signIn(userAgent: agent)
            let token = try #require(signedIn.string("token"))
            let sessions = try await client.send(.get, "/api/auth/sessions", bearer: token)
            let first = try #require((sessions.json["data"] as? [[String: any Sendable]])?.first)
            #expect(first["userAgent"] as? String == #"Evil\u{9b}2J\u{202e}txt.exe"#)
        }
    }

    @Test func escapingShowsEachForbiddenCharacterAndKeepsTheRest() {
        #expect(TextCharacters.escaped("Evil\u{1b}]0;T\u{7}\u{202e}é\n") == #"Evil\u{1b}]0;T\u{7}\u{202e}é\u{a}"#)
        #expect(TextCharacters.escaped("a\nb", keepingLineFeeds: true) == "a\nb")
        #expect(TextCharacters.escaped("plain text") == "plain text")
        // JSON stays JSON: the escapes are JSON's, and its own whitespace stays.
        let json = "{\n  \"name\": \"a\u{202e}b\u{9b}\"\n}"
        let escaped = TextCharacters.escapedJSON(json)
        #expect(escaped == "{\n  \"name\": \"a\\u202eb\\u009b\"\n}")
        let decoded = try? JSONSerialization.jsonObject(with: Data(escaped.utf8)) as? [String: String]
        #expect(decoded?["name"] == "a\u{202e}b\u{9b}")
    }

    /// A log line never carries a raw control or bidi character, in either format: a request's
    /// path or a stored name cannot clear the screen of whoever tails the log.
    @Test(arguments: [ServerSettings.LogFormat.text, .json])
    func logLinesAreEscaped(format: ServerSettings.LogFormat) throws {
        let lines = Locked([String]())
        var logger = Logger(label: "repairminder") { label in
            LineLogHandler(label: label, format: format) { line in lines.update { $0.append(line) } }
        }
        logger.logLevel = .debug
        logger.info("Shop \u{1b}]0;TITLE\u{7} approved", metadata: ["name": "a\u{202e}b\u{9b}c", "path": "/x\u{0}"])
        let line = try #require(lines.value.first)
        #expect(line.hasSuffix("\n"))
        #expect(!line.dropLast().unicodeScalars.contains(where: TextCharacters.isForbidden), "\(line.debugDescription)")
        if format == .json {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["message"] as? String == "Shop \u{1b}]0;TITLE\u{7} approved", "the same text, JSON-escaped")
            #expect(object["name"] as? String == "a\u{202e}b\u{9b}c")
        } else {
            #expect(line.contains(#"Shop \u{1b}]0;TITLE\u{7} approved"#))
            #expect(line.contains(#"name=a\u{202e}b\u{9b}c"#))
        }
    }
}
