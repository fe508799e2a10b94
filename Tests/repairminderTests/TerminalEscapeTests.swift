import Foundation
import Testing

/// Issue 36, item 1: a name stored before the text rule (here through a fixtures file, which an
/// operator writes) reaches the operator's terminal escaped by every command that prints it.
/// Before the fix, `company list` wrote the ESC, BEL and bidi override raw.
@Suite(.serialized) struct TerminalEscapeTests {
    static let hostileName = "Evil\u{1b}]0;TITLE\u{7}\u{1b}[2J\u{202e}gnp.exe"
    static let shownName = #"Evil\u{1b}]0;TITLE\u{7}\u{1b}[2J\u{202e}gnp.exe"#

    /// Nothing a terminal obeys: no C0 control but the line feed, no C1, no bidi control.
    static func isTerminalSafe(_ text: String) -> Bool {
        !text.unicodeScalars.contains { scalar in
            (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
                || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
        }
    }

    @Test func storedEscapesArePrintedEscaped() throws {
        let dataDir = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let file = dataDir + "-hostile.json"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let fixtures: [String: Any] = ["companies": [["name": Self.hostileName, "status": "pending_approval"]]]
        try JSONSerialization.data(withJSONObject: fixtures).write(to: URL(fileURLWithPath: file))
        let seed = try CommandLineTests.run(["seed", file, "--data-dir", dataDir])
        try #require(seed.status == 0, "\(seed.error)")
        #expect(Self.isTerminalSafe(seed.output))

        let list = try CommandLineTests.run(["company", "list", "--data-dir", dataDir])
        #expect(list.status == 0, "\(list.error)")
        #expect(list.output.contains(Self.shownName))
        #expect(Self.isTerminalSafe(list.output), "\(list.output.debugDescription)")

        // JSON stays JSON, with JSON's escapes, and holds the name as stored.
        let json = try CommandLineTests.run(["company", "list", "--json", "--data-dir", dataDir])
        #expect(Self.isTerminalSafe(json.output), "\(json.output.debugDescription)")
        let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        #expect(object?["name"] as? String == Self.hostileName)

        let approve = try CommandLineTests.run(["company", "approve", Self.hostileName, "--data-dir", dataDir])
        #expect(approve.status == 0, "\(approve.error)")
        #expect(approve.output == "\(Self.shownName): pending_approval → active\n")

        let audit = try CommandLineTests.run(["audit", "--data-dir", dataDir])
        #expect(audit.status == 0, "\(audit.error)")
        #expect(audit.output.contains(Self.shownName))
        #expect(Self.isTerminalSafe(audit.output), "\(audit.output.debugDescription)")
        let auditJSON = try CommandLineTests.run(["audit", "--json", "--data-dir", dataDir])
        #expect(Self.isTerminalSafe(auditJSON.output))

        // An error that names what was given is escaped too.
        let unknown = try CommandLineTests.run(["company", "approve", "No\u{1b}[2JSuch", "--data-dir", dataDir])
        #expect(unknown.status != 0)
        #expect(Self.isTerminalSafe(unknown.error), "\(unknown.error.debugDescription)")
    }
}
