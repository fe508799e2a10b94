import Foundation
import RepairMinderModels
import Testing

/// A request field's rule is one declaration from which both the OpenAPI document's schema and
/// the server's check come: here each rule's check accepts a value exactly when its own schema
/// does, on values chosen to sit at every edge (blank, lengths, Unicode whitespace, invisible
/// characters, almost-codes and almost-addresses).
@Suite struct RuleAgreementTests {
    static let rules: [(String, StringRule)] = [
        ("identifier", FieldRules.identifier), ("secret", FieldRules.secret), ("email", FieldRules.email),
        ("sixDigitCode", FieldRules.sixDigitCode), ("secondFactorCode", FieldRules.secondFactorCode),
        ("challengeToken", FieldRules.challengeToken), ("refreshToken", FieldRules.refreshToken),
        ("deviceToken", FieldRules.deviceToken), ("newPassword", FieldRules.newPassword),
        ("text(maxLength: 100)", FieldRules.text(maxLength: 100)), ("redirectUri", OAuthRedirectURI.rule), ("scope", OAuthScope.rule),
    ]

    static let samples: [String] = {
        var samples = [
            "", " ", "\t\n", "\u{85}", "\u{A0}", "\u{3000}", "\u{FEFF}", "\u{200B}", "a", " a ", "\u{85}a\u{2028}",
            "123456", " 123456 ", "12345", "1234567", "12 3456", "١٢٣٤٥٦", "ABCD2345", "abcd-2345", "ABCD 2345", "AB-CD-23-45",
            "ABCD23456", "ada@acme.test", " Ada@Acme.Test\n", "ada@acme", "@acme.test", "ada@@acme.test", "ada@.test",
            "ada@acme..test", "a da@acme.test", "ada\u{202E}@acme.test", "ada\u{0}@acme.test", "ädä@äcme.test",
            "ada@acme.test\u{A0}", "x1<ada@acme.test>", "😀@acme.test",
            "https://app.test/cb", " https://app.test/cb", "https://app.test/c b", "https://app.test/cb#x", "https://*.app.test",
            "http://127.0.0.1", "http://127.0.0.1:5000/cb", "http://[::1]/", "http://127.0.0.10/cb", "https://app.test/é",
            "openid", "clients:read", " openid",
        ]
        for count in [63, 64, 65, 100, 101, 128, 129, 254, 255, 512, 513, 1024, 1025] {
            samples.append(String(repeating: "a", count: count))
            samples.append(String(repeating: "é", count: count))
            samples.append(String(repeating: "a", count: max(count - 10, 1)) + "@acme.test")
            samples.append(" " + String(repeating: "b", count: count - 2) + " ")
        }
        samples.append(String(repeating: "a", count: 64) + "@" + String(repeating: "b", count: 185) + ".test")
        return samples
    }()

    @Test(arguments: RuleAgreementTests.rules.map(\.0))
    func checkAcceptsExactlyWhatTheSchemaAccepts(_ name: String) throws {
        let rule = try #require(Self.rules.first { $0.0 == name }?.1)
        guard case .string(let keywords) = rule.schema else {
            Issue.record("\(name)'s schema is not a string")
            return
        }
        for sample in Self.samples {
            let schemaAccepts = SchemaChecker.stringProblems(sample, keywords, at: "$").isEmpty
            let checkAccepts = (try? rule.check(sample, "field")) != nil
            #expect(schemaAccepts == checkAccepts, "\(name): \(sample.debugDescription) schema \(schemaAccepts), check \(checkAccepts)")
        }
    }

    @Test func acceptedValuesAreNormalised() throws {
        #expect(try FieldRules.email.check(" Ada@Acme.Test\n", "email") == "ada@acme.test")
        #expect(try FieldRules.identifier.check("\u{3000}u1\u{85}", "userId") == "u1")
        #expect(try FieldRules.secret.check(" spaced out ", "password") == " spaced out ")
    }

    @Test func failuresNameTheField() {
        func message(_ rule: StringRule, _ value: String) -> String? {
            do {
                _ = try rule.check(value, "field")
                return nil
            } catch { return error.message }
        }
        #expect(message(FieldRules.email, "  ") == "field is required")
        #expect(message(FieldRules.email, "not-an-email") == "field must be a valid email address")
        #expect(message(FieldRules.sixDigitCode, "12ab56") == "field must be a 6-digit code")
        #expect(message(FieldRules.refreshToken, String(repeating: "x", count: 513)) == "field is too long")
        #expect(message(FieldRules.secret, "") == "field is required")
    }

    /// Every string field of every JSON request body takes its schema from a rule, never a
    /// hand-written one (a raw body, the clients' CSV, is checked row by row by its importer).
    @Test func requestBodiesDescribeEveryFieldOnce() throws {
        let requestTypes = Routes.served.compactMap(\.requestType).filter { !($0 is any RawRequestBody.Type) }
        let bodies = requestTypes.compactMap { $0 as? any WireRequest.Type }
        #expect(bodies.count == requestTypes.count, "every request body of a served route is a WireRequest")
        #expect(!bodies.isEmpty)
        for body in bodies {
            // A body of alternatives (`exactlyOneOf`) is one object per alternative.
            let objects: [JSONSchema] = if case .oneOf(let choices) = body.schema { choices } else { [body.schema] }
            #expect(objects.count == max(body.exactlyOneOf.count, 1), "\(body.schemaName)'s alternatives")
            for object in objects {
                guard case .object(let properties, _) = object else {
                    Issue.record("\(body.schemaName) is not an object")
                    continue
                }
                #expect(!properties.isEmpty, "\(body.schemaName) declares no fields")
                #expect(Set(properties.map(\.name)).count == properties.count, "\(body.schemaName) lists a field twice")
            }
        }
    }
}

/// Redirect URIs (docs/API.md §16.1): what may be registered, and what a request must send to match.
@Suite struct RedirectURIRuleTests {
    @Test func onlyHTTPSOrLoopbackWithoutFragmentsOrWildcards() {
        for good in ["https://app.test/cb", "https://app.test:8443/cb?x=1", "http://127.0.0.1/cb", "http://127.0.0.1:5000/cb", "http://[::1]:5000/"] {
            #expect(OAuthRedirectURI.problem(good) == nil, "\(good)")
            #expect((try? OAuthRedirectURI.rule.check(good, "uri")) != nil, "\(good)")
        }
        for bad in [
            "http://app.test/cb", "https://app.test/cb#x", "https://*.app.test/cb", "http://localhost/cb", "app:/cb",
            "https://u:p@app.test/cb", "https:///cb", "/cb", "http://127.0.0.1.evil.test/cb",
        ] {
            #expect(OAuthRedirectURI.problem(bad) != nil, "\(bad)")
        }
    }

    @Test func matchingIsExactButForALoopbackPort() {
        let web = "https://app.test/cb", native = "http://127.0.0.1/cb"
        #expect(OAuthRedirectURI.matches(web, registered: web))
        for nearMiss in ["https://app.test/cb/", "https://app.test:444/cb", "https://app.test/cb?x=1", "https://APP.test/cb", "http://app.test/cb"] {
            #expect(!OAuthRedirectURI.matches(nearMiss, registered: web), "\(nearMiss)")
        }
        #expect(OAuthRedirectURI.matches("http://127.0.0.1:53122/cb", registered: native))
        #expect(OAuthRedirectURI.matches("http://127.0.0.1:53122/cb", registered: "http://127.0.0.1:8000/cb"))
        for nearMiss in ["http://127.0.0.1:53122/cb/", "http://127.0.0.1:53122/cb?x", "http://[::1]:53122/cb", "http://localhost:53122/cb",
                         "http://u@127.0.0.1:53122/cb"] {
            #expect(!OAuthRedirectURI.matches(nearMiss, registered: native), "\(nearMiss)")
        }
    }
}
