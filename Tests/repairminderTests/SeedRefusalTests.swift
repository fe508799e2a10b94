import Foundation
import Testing

/// `repairminder seed` refuses a file it cannot load faithfully, in one line naming where the
/// problem is, before it creates a database or copies anything (issue 29 item 4).
@Suite struct SeedRefusalTests {
    /// Runs `seed` on `text` in a fresh data directory: the result, and whether the data
    /// directory was created.
    static func seed(_ text: String) throws -> (result: (status: Int32, output: String, error: String), file: String, created: Bool) {
        let dataDir = CommandLineTests.temporaryDirectory()
        let file = dataDir + "-fixtures.json"
        defer {
            try? FileManager.default.removeItem(atPath: file)
            try? FileManager.default.removeItem(atPath: dataDir)
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let result = try CommandLineTests.run(["seed", file, "--data-dir", dataDir, "--bcrypt-cost", "4"])
        return (result, file, FileManager.default.fileExists(atPath: dataDir))
    }

    static func user(password: String, extra: String = "") -> String {
        #"""
        { "companies": [ { "name": "Acme Repairs" } ],
          "users": [ { "email": "ada@acme.test", "password": "\#(password)", "company": "Acme Repairs"\#(extra) } ] }
        """#
    }

    /// The server's password policy, the same one registration and reset apply.
    @Test(arguments: [
        ("password", "This password is too common. Choose another."),
        ("pw", "Password must be at least 8 characters"),
        ("ada@acme.test", "Password must not be your email address"),
    ])
    func aPasswordThePolicyRefusesIsRefused(password: String, rule: String) throws {
        let (result, file, created) = try Self.seed(Self.user(password: password))
        MissingDatabaseTests.expectOneErrorLine(result, containing: [])
        #expect(result.error == "error: \(file): user ada@acme.test: password refused: \(rule)\n")
        #expect(!created)
    }

    @Test(arguments: [
        (#"{ "companies": [ { "name": "Acme Repairs" } ], "user": [] }"#, #"the file: unknown key "user"; the keys are companies, users, clients"#),
        (user(password: "violet kettle 1987 drum", extra: #", "isActve": false"#), #"users[0]: unknown key "isActve""#),
        (#"{ "companies": [ { "name": "A" }, { "name": "B", "vat": "GB1" } ] }"#, #"companies[1]: unknown key "vat""#),
        (#"{ "clients": [ { "email": "j@example.test", "company": "A", "phone": "1" } ] }"#, #"clients[0]: unknown key "phone""#),
    ])
    func anUnknownKeyIsRefusedWithItsPath(text: String, message: String) throws {
        let (result, file, created) = try Self.seed(text)
        MissingDatabaseTests.expectOneErrorLine(result, containing: ["error: \(file): \(message)"])
        #expect(!created)
    }

    @Test(arguments: [
        ("{\n  \"companies\": [\n    { \"name\": \"Acme\" \"status\": \"active\" }\n  ]\n}", "line 3, column 22: unexpected '\"': expected ',' or '}'"),
        ("{\n  \"companies\": [\n    { \"name\": \"Acme\", }\n  ]\n}", "line 3, column 23: a comma before '}': remove it"),
        ("{ \"companies\": [ { \"name\": 'Acme' } ] }", "line 1, column 28: unexpected '''"),
        ("{ \"companies\": [\n", "line 2, column 1: unexpected end of file"),
        ("", "line 1, column 1: the file is empty"),
    ])
    func brokenJSONIsRefusedWithItsLineAndColumn(text: String, position: String) throws {
        let (result, file, created) = try Self.seed(text)
        MissingDatabaseTests.expectOneErrorLine(result, containing: ["error: \(file): not valid JSON: \(position)"])
        #expect(!result.error.contains("DecodingError") && !result.error.contains("dataCorrupted"))
        #expect(!created)
    }

    @Test(arguments: [
        (#"{ "users": [ { "email": "a@acme.test", "company": "A", "isActive": "yes" } ] }"#, "users[0].isActive: expected true or false"),
        (#"{ "users": [ { "company": "A" } ] }"#, #"users[0]: the required key "email" is missing"#),
        (#"{ "companies": { "name": "A" } }"#, "companies: expected a list [...]"),
    ])
    func aValueOfTheWrongShapeIsNamedByItsPath(text: String, message: String) throws {
        let (result, file, _) = try Self.seed(text)
        MissingDatabaseTests.expectOneErrorLine(result, containing: ["error: \(file): \(message)"])
        #expect(!result.error.contains("DecodingError"))
    }
}
