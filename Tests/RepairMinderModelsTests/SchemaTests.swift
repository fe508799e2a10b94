import Foundation
import RepairMinderModels
import Testing

/// Every wire type's example, encoded, fits its own schema: the schema describes what the
/// type really encodes (keys, types, nulls, enum values, patterns).
@Suite struct SchemaTests {
    /// The wire types whose bodies are JSON: every type the route table reaches (`BinaryFile`
    /// aside: its body is bytes) and REKI's failure body, which no route returns on success.
    static let jsonTypes: [any WireType.Type] = Routes.wireTypes.filter { $0.schemaName != BinaryFile.schemaName } + [REKIErrorBody.self]

    /// The example of `type`, encoded and read back as generic JSON.
    static func encodedExample<T: WireType>(of type: T.Type) throws -> JSONValue {
        try encoded(T.example)
    }

    static func encoded(_ value: some Encodable) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
    }

    @Test(arguments: SchemaTests.jsonTypes)
    func exampleFitsSchema(_ type: any WireType.Type) throws {
        let value = try Self.encodedExample(of: type)
        let problems = SchemaChecker.problems(value, type.schema)
        #expect(problems.isEmpty, "\(type.schemaName): \(problems.joined(separator: "; "))")
    }

    @Test func bothVerifyCodeAnswersFitTheirSchema() throws {
        for answer in [CustomerVerifyCodeResponse.signedIn(.example), .selectCompany(.example)] {
            let problems = SchemaChecker.problems(try Self.encoded(answer), CustomerVerifyCodeResponse.schema)
            #expect(problems.isEmpty, "\(answer): \(problems)")
        }
    }

    @Test func bothMagicLinkAnswersFitTheirSchema() throws {
        for answer in [MagicLinkVerifyResponse.signedIn(.example), .secondFactorRequired(.example)] {
            let problems = SchemaChecker.problems(try Self.encoded(answer), MagicLinkVerifyResponse.schema)
            #expect(problems.isEmpty, "\(answer): \(problems)")
            #expect(try JSONDecoder().decode(MagicLinkVerifyResponse.self, from: JSONEncoder().encode(answer)) == answer)
        }
    }

    /// Step 3 takes a code or a passkey: its document fits a body with exactly one of them.
    @Test func aSecondFactorIsACodeOrAPasskeyNotBoth() throws {
        let withCode = try Self.encoded(TwoFactorVerifyRequest(userId: "u1", code: "123456"))
        let withPasskey = try Self.encoded(TwoFactorVerifyRequest(userId: "u1", passkey: .example, challengeToken: nil))
        #expect(SchemaChecker.problems(withCode, TwoFactorVerifyRequest.schema).isEmpty)
        #expect(SchemaChecker.problems(withPasskey, TwoFactorVerifyRequest.schema).isEmpty)
        var both = TwoFactorVerifyRequest(userId: "u1", passkey: .example, challengeToken: nil)
        both.code = "123456"
        #expect(!SchemaChecker.problems(try Self.encoded(both), TwoFactorVerifyRequest.schema).isEmpty)
        #expect(throws: FieldProblem("Send code or passkey, not both")) { try both.validated() }
        // `null` is not giving it: the document says so too.
        #expect(!SchemaChecker.problems(.object(["userId": "u1", "passkey": .null]), TwoFactorVerifyRequest.schema).isEmpty)
        var neither = both
        neither.code = nil
        neither.passkey = nil
        #expect(!SchemaChecker.problems(try Self.encoded(neither), TwoFactorVerifyRequest.schema).isEmpty)
        #expect(throws: FieldProblem("code or passkey is required")) { try neither.validated() }
        var badSignature = TwoFactorVerifyRequest(userId: "u1", passkey: .example, challengeToken: nil)
        badSignature.passkey?.response.signature = "not base64url!"
        #expect(throws: FieldProblem("passkey.response.signature must be base64url without padding")) { try badSignature.validated() }
    }

    @Test func nullsAndOmittedOptionalsFitTheSchema() throws {
        let user = StaffUser(
            id: "u1", email: "ada@acme.test", firstName: nil, lastName: nil, companyId: "c1", role: .office,
            phiAccessLevel: nil, dataClassification: nil, isActive: false, magicLinkEnabled: nil, companyStatus: nil,
            lastLogin: nil, createdAt: nil, updatedAt: nil)
        let company = Company(
            id: "c1", name: "Acme Repairs", status: .suspended, currencyCode: nil, vatNumber: nil, logoUrl: nil,
            vatRateRepair: nil, vatRateDeviceSale: nil, vatRateAccessory: nil, vatRateDevicePurchase: nil)
        let summary = LoginUserSummary(id: "u1", email: "ada@acme.test", firstName: nil, lastName: nil, companyId: "c1")
        let cases: [(JSONValue, JSONSchema)] = [
            (try Self.encoded(user), StaffUser.schema),
            (try Self.encoded(company), Company.schema),
            (try Self.encoded(summary), LoginUserSummary.schema),
            (try Self.encoded(CustomerClient(id: "k1", firstName: nil, lastName: nil, email: "j@c.test", name: "j@c.test")),
             CustomerClient.schema),
            (try Self.encoded(CustomerMagicLinkRequest(email: "j@c.test")), CustomerMagicLinkRequest.schema),
            (try Self.encoded(PushPreferencesUpdate()), PushPreferencesUpdate.schema),
            (try Self.encoded(TwoFactorVerifyRequest(userId: "u1", code: "ABCD-2345")), TwoFactorVerifyRequest.schema),
        ]
        for (value, schema) in cases {
            let problems = SchemaChecker.problems(value, schema)
            #expect(problems.isEmpty, "\(value): \(problems)")
        }
    }

    @Test func binaryFileIsDocumentedAsBytes() {
        // Its body is the file itself, not JSON, so there is no encoded form to check.
        guard case .string(let rules) = BinaryFile.schema else {
            Issue.record("BinaryFile's schema is not a string")
            return
        }
        #expect(rules.format == "binary")
        #expect(!BinaryFile.example.data.isEmpty)
        #expect(BinaryFile.example.contentType != nil)
    }

    @Test func arraysAreNamedAfterTheirElement() {
        #expect([RegisteredDeviceToken].schemaName == "RegisteredDeviceTokenList")
        #expect(StaffUser.schemaName == "StaffUser")
        #expect([RegisteredDeviceToken].example == [RegisteredDeviceToken.example])
    }

    /// The checker finds each kind of mistake, so passing it means something.
    @Test func wrongValuesFail() throws {
        func replacing(_ key: String, with replacement: JSONValue, in value: JSONValue) -> JSONValue {
            guard case .object(var members) = value else { return value }
            members[key] = replacement
            return .object(members)
        }
        func removing(_ key: String, from value: JSONValue) -> JSONValue {
            guard case .object(var members) = value else { return value }
            members.removeValue(forKey: key)
            return .object(members)
        }
        let user = try Self.encodedExample(of: StaffUser.self)
        let registration = try Self.encodedExample(of: DeviceTokenRegistration.self)
        let verify = try Self.encodedExample(of: MagicLinkVerifyRequest.self)
        let login = try Self.encodedExample(of: LoginRequest.self)
        let token = try Self.encodedExample(of: RegisteredDeviceToken.self)
        let cases: [(String, JSONValue, JSONSchema)] = [
            ("a string for an object", "hello", StaffUser.schema),
            ("a boolean where the backend sends 0/1", replacing("is_active", with: true, in: user), StaffUser.schema),
            ("an integer boolean out of range", replacing("is_active", with: 2, in: user), StaffUser.schema),
            ("null for a required non-null field", replacing("email", with: .null, in: user), StaffUser.schema),
            ("a required key missing", removing("company_id", from: user), StaffUser.schema),
            ("an unknown role", replacing("role", with: "owner", in: user), StaffUser.schema),
            ("a bad timestamp", replacing("created_at", with: "yesterday", in: user), StaffUser.schema),
            ("an undocumented key", replacing("firstName", with: "Ada", in: user), StaffUser.schema),
            ("an unknown platform", replacing("platform", with: "windows", in: registration), DeviceTokenRegistration.schema),
            ("a too-long device token", replacing("deviceToken", with: .string(String(repeating: "a", count: 513)), in: registration),
             DeviceTokenRegistration.schema),
            ("a code that is not 6 digits", replacing("code", with: "12ab56", in: verify), MagicLinkVerifyRequest.schema),
            ("a malformed email", replacing("email", with: "not-an-email", in: login), LoginRequest.schema),
            ("an empty password", replacing("password", with: "", in: login), LoginRequest.schema),
            ("a number for a string", replacing("password", with: 1234, in: login), LoginRequest.schema),
            ("a wrong element in a list", .array([token, "x"]), [RegisteredDeviceToken].schema),
            ("an object for a list", login, [RegisteredDeviceToken].schema),
            ("neither answer of a oneOf", login, CustomerVerifyCodeResponse.schema),
            ("a fraction for an integer", ["page": 1, "limit": 20, "total": 100, "total_pages": .number(2.5)],
             Pagination.schema),
            ("a negative total", ["page": 1, "limit": 20, "total": -1, "total_pages": 0], Pagination.schema),
        ]
        for (label, value, schema) in cases {
            #expect(!SchemaChecker.problems(value, schema).isEmpty, "accepted \(label)")
        }
    }
}

/// A small JSON Schema checker for `JSONSchema`: types, required keys, nulls, string rules,
/// integer bounds, `oneOf`, and references resolved through the referenced type's schema.
/// Objects are closed: a key the schema does not document is a problem, so that a misspelled
/// optional property cannot go unnoticed.
enum SchemaChecker {
    static func problems(_ value: JSONValue, _ schema: JSONSchema, at path: String = "$", depth: Int = 0) -> [String] {
        guard depth < 32 else { return ["\(path): references nest too deeply"] }
        switch schema {
        case .anything:
            return []
        case .nullable(let inner):
            return value == .null ? [] : problems(value, inner, at: path, depth: depth)
        case .reference(let type):
            return problems(value, type.schema, at: path, depth: depth + 1)
        case .oneOf(let choices):
            let fitting = choices.filter { problems(value, $0, at: path, depth: depth + 1).isEmpty }.count
            return fitting == 1 ? [] : ["\(path): fits \(fitting) of the \(choices.count) choices, not exactly one"]
        case .boolean:
            guard case .bool = value else { return ["\(path): \(value) is not a boolean"] }
            return []
        case .number:
            guard case .number = value else { return ["\(path): \(value) is not a number"] }
            return []
        case .integer(let minimum, let maximum):
            guard case .number(let number) = value, number.rounded() == number else {
                return ["\(path): \(value) is not an integer"]
            }
            var found: [String] = []
            if let minimum, number < Double(minimum) { found.append("\(path): \(number) is below \(minimum)") }
            if let maximum, number > Double(maximum) { found.append("\(path): \(number) is above \(maximum)") }
            return found
        case .string(let rules):
            guard case .string(let text) = value else { return ["\(path): \(value) is not a string"] }
            return stringProblems(text, rules, at: path)
        case .array(let items, let maxItems):
            guard case .array(let elements) = value else { return ["\(path): \(value) is not an array"] }
            if let maxItems, elements.count > maxItems { return ["\(path): \(elements.count) items, more than \(maxItems)"] }
            return elements.enumerated().flatMap { index, element in
                problems(element, items, at: "\(path)[\(index)]", depth: depth)
            }
        case .object(let properties, _):
            guard case .object(let members) = value else { return ["\(path): \(value) is not an object"] }
            var found: [String] = []
            for property in properties {
                if let member = members[property.name] {
                    found += problems(member, property.schema, at: "\(path).\(property.name)", depth: depth)
                } else if property.isRequired {
                    found.append("\(path): required key \(property.name) is missing")
                }
            }
            let documented = Set(properties.map(\.name))
            for key in members.keys.sorted() where !documented.contains(key) {
                found.append("\(path): key \(key) is not in the schema")
            }
            return found
        }
    }

    static func stringProblems(_ text: String, _ rules: JSONSchema.StringRules, at path: String) -> [String] {
        var found: [String] = []
        let length = text.unicodeScalars.count
        if let minimum = rules.minLength, length < minimum { found.append("\(path): shorter than \(minimum)") }
        if let maximum = rules.maxLength, length > maximum { found.append("\(path): longer than \(maximum)") }
        if let allowed = rules.allowed, !allowed.contains(text) {
            found.append("\(path): \"\(text)\" is not one of \(allowed)")
        }
        if let pattern = rules.pattern, !matches(text, pattern) {
            found.append("\(path): \"\(text)\" does not match \(pattern)")
        }
        switch rules.format {
        case "email":
            if !matches(text, #"^[^@\s]+@[^@\s.]+(\.[^@\s.]+)+$"#) { found.append("\(path): \"\(text)\" is not an email") }
        case "date-time":
            if !isTimestamp(text) { found.append("\(path): \"\(text)\" is not an ISO 8601 date-time") }
        case "uri":
            if URL(string: text)?.scheme == nil { found.append("\(path): \"\(text)\" is not an absolute URI") }
        default:
            break
        }
        return found
    }

    /// Whether `pattern` matches somewhere in `text` (JSON Schema patterns are not anchored).
    static func matches(_ text: String, _ pattern: String) -> Bool {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return false }
        let range = NSRange(text.startIndex..., in: text)
        return expression.firstMatch(in: text, range: range) != nil
    }

    static func isTimestamp(_ text: String) -> Bool {
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return plain.date(from: text) != nil || fractional.date(from: text) != nil
    }

}
