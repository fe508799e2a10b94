import Foundation
import RepairMinderServer
import TestSupport
import Testing

/// `repairminder clients ...` (docs/API.md §14) against a live `serve --demo`: the records, the
/// CSV import's progress and report, the export, and the portal's invitation and sessions.
@Suite struct ClientsCommandTests {
    typealias Server = ClientCommandTests.Server

    /// The id a line of `clients add|list|search` starts with (after "Added " for `add`).
    static func id(in output: String) throws -> String {
        let line = try #require(output.split(separator: "\n").first)
        let words = line.split(separator: " ")
        return String(try #require(words.first == "Added" ? words.dropFirst().first : words.first))
    }

    /// A CSV file in a fresh directory; its path.
    static func csvFile(_ text: String) throws -> String {
        let directory = CommandLineTests.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/customers.csv"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func staffAddFindChangeAndDeleteAClient() throws {
        let server = try Server()
        try PolicyCommandTests.login(server, "admin@acme.test", "correct horse battery")

        let added = try server.client(
            ["clients", "add", "--email", "Ada@Example.com", "--first-name", "Ada", "--last-name", "Lovelace", "--phone", "+44 7700 900123",
             "--notes", "Prefers a call"])
        #expect(added.status == 0, "\(added.error)")
        #expect(added.output.hasSuffix("  Ada Lovelace <ada@example.com>  +44 7700 900123\n"), "\(added.output)")
        let id = try Self.id(in: added.output)

        // A taken address: the server's words and the existing client.
        let again = try server.client(["clients", "add", "--email", "ADA@example.com"])
        #expect(again.status == 1)
        #expect(again.error.contains("error: This address is already a client of the shop"), "\(again.error)")
        #expect(again.error.contains("It is client \(id): repairminder clients show \(id)"), "\(again.error)")

        let listed = try server.client(["clients", "list"])
        #expect(listed.status == 0, "\(listed.error)")
        #expect(try Self.id(in: listed.output) == id)  // newest first
        #expect(listed.output.contains("Jane Customer <jane@example.test>"), "\(listed.output)")
        #expect(listed.output.hasSuffix("Page 1 of 1, 3 in all.\n"), "\(listed.output)")
        for sort in ["name", "-created_at"] {
            let sorted = try server.client(["clients", "list", "--sort", sort, "--limit", "2"])
            #expect(sorted.status == 0, "\(sort): \(sorted.error)")
            #expect(sorted.output.hasSuffix("Page 1 of 2, 3 in all.\n"), "\(sort): \(sorted.output)")
        }
        #expect(try server.client(["clients", "list", "--query", "lov"]).output.hasSuffix("1 in all.\n"))
        let found = try server.client(["clients", "search", "447700"])
        #expect(found.status == 0, "\(found.error)")
        #expect(try Self.id(in: found.output) == id)
        #expect(try server.client(["clients", "search", "nobody"]).output == "No client matches.\n")

        let shown = try server.client(["clients", "show", id])
        #expect(shown.status == 0, "\(shown.error)")
        #expect(shown.output.contains("Email:       ada@example.com\n"), "\(shown.output)")
        #expect(shown.output.contains("Notes:       Prefers a call\n"))
        #expect(shown.output.contains("Portal:      on, never signed in\n"))

        let edited = try server.client(["clients", "edit", id, "--first-name", "Augusta", "--notes", "Line one\nLine two", "--portal", "off"])
        #expect(edited.status == 0, "\(edited.error)")
        #expect(edited.output.contains("Name:        Augusta Lovelace\n"), "\(edited.output)")
        #expect(edited.output.contains("Notes:       Line one\n             Line two\n"), "\(edited.output)")
        #expect(edited.output.contains("Portal:      off, never signed in\n"))
        #expect(try server.client(["clients", "list"]).output.contains("(portal off)"))

        // Mistakes in the command line are usage errors; nothing is sent.
        let nothing = try server.client(["clients", "edit", id])
        #expect(nothing.status == 2)
        #expect(nothing.error.contains("name at least one field to change"), "\(nothing.error)")
        #expect(try server.client(["clients", "edit", id, "--portal", "maybe"]).status == 2)
        #expect(try server.client(["clients", "list", "--sort", "email"]).error.contains("--sort must be name or -created_at"))
        #expect(try server.client(["clients", "search", "ada", "--limit", "11"]).status == 2)

        let deleted = try server.client(["clients", "delete", id])
        #expect(deleted.status == 0, "\(deleted.error)")
        #expect(deleted.output.contains("Deleted client \(id)"))
        let gone = try server.client(["clients", "show", id])
        #expect(gone.status == 1)
        #expect(gone.error.hasPrefix("error: "), "\(gone.error)")

        // An engineer may not read the shop's clients.
        try PolicyCommandTests.login(server, "engineer@acme.test", "engineer password")
        let refused = try server.client(["clients", "list"])
        #expect(refused.status == 1)
        #expect(refused.error.contains("You do not have permission to do this"), "\(refused.error)")
    }

    @Test func anImportPrintsItsProgressAndItsReportAndAnExportReadsBack() throws {
        let server = try Server()
        try PolicyCommandTests.login(server, "admin@acme.test", "correct horse battery")
        let file = try Self.csvFile(
            "email,first_name,last_name,phone,notes\r\ngrace@example.com,Grace,Hopper,,\r\nnot-an-address,Bad,Row,,\r\n"
                + "jane@example.test,Jane,Renamed,,\"Line one\nLine two\"\r\n")
        defer { try? FileManager.default.removeItem(atPath: (file as NSString).deletingLastPathComponent) }

        let dryRun = try server.client(["clients", "import", file, "--dry-run"])
        #expect(dryRun.status == 1, "a refused row fails the command")
        #expect(dryRun.error.contains("Reading \(file) (3 rows)...\n"), "\(dryRun.error)")
        #expect(dryRun.error.contains("Uploading for a dry run (nothing is written)...\n"), "\(dryRun.error)")
        #expect(dryRun.output.hasPrefix("Dry run: nothing was written.\nCreated:    1\nUpdated:    1\nUnchanged:  0\nFailed:     1\n"), "\(dryRun.output)")
        #expect(dryRun.output.hasSuffix("Failed:     1\nline 3, email: email must be a valid email address\n"), "\(dryRun.output)")

        let refused = try server.client(["clients", "import", file])
        #expect(refused.status == 1)
        #expect(refused.output.hasPrefix("Nothing was written: a row was refused (--partial writes the others).\n"), "\(refused.output)")
        #expect(try server.client(["clients", "search", "grace"]).output == "No client matches.\n")

        let partial = try server.client(["clients", "import", file, "--partial"])
        #expect(partial.status == 1)
        #expect(partial.output.hasPrefix("Imported the rows that passed.\nCreated:    1\n"), "\(partial.output)")
        #expect(try server.client(["clients", "search", "grace"]).output.contains("Grace Hopper <grace@example.com>"))

        // From standard input, a clean file: imported, status 0.
        let piped = try server.client(["clients", "import", "-"], input: [{ _ in "email,first_name\nlin@example.com,Lin" }])
        #expect(piped.status == 0, "\(piped.error)")
        #expect(piped.error.contains("Reading standard input (1 row)...\n"), "\(piped.error)")
        #expect(piped.output.hasPrefix("Imported.\nCreated:    1\n"), "\(piped.output)")

        // The export: to a file with a summary, or as it is on standard output (a pipe).
        let exported = (file as NSString).deletingLastPathComponent + "/export.csv"
        let toFile = try server.client(["clients", "export", exported])
        #expect(toFile.status == 0, "\(toFile.error)")
        #expect(toFile.error.contains("Wrote 4 clients to \(exported).\n"), "\(toFile.error)")
        let csv = try String(contentsOfFile: exported, encoding: .utf8)
        #expect(csv.hasPrefix("email,first_name,last_name,phone,notes,created_at\r\n"), "\(csv.prefix(80))")
        #expect(csv.contains("\"Line one\nLine two\""), "\(csv)")
        let toStdout = try server.client(["clients", "export"])
        #expect(toStdout.status == 0, "\(toStdout.error)")
        #expect(toStdout.output == csv)

        // Imported back, the export changes nothing.
        let back = try server.client(["clients", "import", exported])
        #expect(back.status == 0, "\(back.error)")
        #expect(back.output.hasPrefix("Imported.\nCreated:    0\nUpdated:    0\nUnchanged:  4\nFailed:     0\n"), "\(back.output)")
    }

    @Test func aClientIsInvitedAndSignedOutOfThePortal() throws {
        let server = try Server()
        try PolicyCommandTests.login(server, "admin@acme.test", "correct horse battery")
        let jane = try Self.id(in: try server.client(["clients", "search", "jane@example.test"]).output)

        let invited = try server.client(["clients", "invite", jane])
        #expect(invited.status == 0, "\(invited.error)")
        #expect(!invited.output.isEmpty)
        let again = try server.client(["clients", "invite", jane])
        #expect(again.status == 1)
        #expect(again.error.contains("Try again in "), "\(again.error)")

        let sessions = try server.client(["clients", "sessions", jane])
        #expect(sessions.status == 0, "\(sessions.error)")
        #expect(sessions.output == "No live sessions.\n")
        let signedOut = try server.client(["clients", "sign-out", jane])
        #expect(signedOut.status == 0, "\(signedOut.error)")
        #expect(signedOut.output == "Signed out 0 sessions.\n")

        // A client whose portal is off is not invited: how to switch it on.
        let max = try Self.id(in: try server.client(["clients", "search", "multi@example.test"]).output)
        #expect(try server.client(["clients", "edit", max, "--portal", "off"]).status == 0)
        let off = try server.client(["clients", "invite", max])
        #expect(off.status == 1)
        #expect(off.error.contains("repairminder clients edit <id> --portal on"), "\(off.error)")
    }
}
