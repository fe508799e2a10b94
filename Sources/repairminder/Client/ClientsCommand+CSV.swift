import ArgumentParser
import Foundation
import RepairMinderKit
import RepairMinderModels

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `repairminder clients import|export`: the shop's clients as CSV (docs/API.md §14).
extension ClientsCommand {
    struct Import: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.clients.import]
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Add and update clients from a CSV file, all or nothing unless --partial.",
            usage: """
                repairminder clients import <file> [--dry-run] [--partial]
                  [--server <url>]
                """,
            discussion: """
                The file is CSV (RFC 4180, UTF-8) with a header row naming its columns: email (required), \
                first_name, last_name, phone, notes, as `clients export` writes them (its created_at is ignored); \
                other columns are refused. A row whose address is already a client updates that client. At most \
                10 MB and 50,000 rows. A file named - is read from standard input.

                With any refused row nothing is written, unless --partial writes the others. --dry-run writes \
                nothing and reports what the import would do. The refused rows are listed with their line in the \
                file (the header is line 1); the exit status is 1 when any row was refused.

                EXAMPLES:
                  repairminder clients import customers.csv --dry-run
                  repairminder clients import customers.csv
                  repairminder clients import customers.csv --partial
                """)
        @Argument(help: ArgumentHelp("The CSV file, or - for standard input.", valueName: "file")) var file: String
        @Flag(name: .customLong("dry-run"), help: "Report what the import would do; write nothing.") var dryRun = false
        @Flag(help: "Write the rows that pass even when others are refused.") var partial = false
        @OptionGroup var connection: ServerOptions

        func run() async throws {
            let (file, dryRun, partial) = (file, dryRun, partial)
            try await ClientsCommand.withClients(connection) { clients in
                let data = try Self.read(file)
                let rows = max(CSVRecords.count(in: data) - 1, 0)
                Terminal.note("Reading \(file == "-" ? "standard input" : file) (\(rows) row\(rows == 1 ? "" : "s"))...")
                Terminal.note(dryRun ? "Uploading for a dry run (nothing is written)..." : "Uploading...")
                let report = try await clients.importCSV(data, dryRun: dryRun, partial: partial)
                Self.print(report, dryRun: dryRun)
                if report.failed > 0 { throw ClientContext.Exit.refused }
            }
        }

        /// The file's bytes, or standard input's for `-`.
        static func read(_ file: String) throws -> Data {
            if file == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
            guard let data = FileManager.default.contents(atPath: file) else { throw ClientInputError("cannot read \(file)") }
            return data
        }

        /// The report: what happened, the counts, and each refused row with its line.
        static func print(_ report: ClientImportReport, dryRun: Bool) {
            let outcome =
                if dryRun { "Dry run: nothing was written." }
                else if report.written { report.failed > 0 ? "Imported the rows that passed." : "Imported." }
                else { "Nothing was written: \(report.failed == 1 ? "a row was" : "rows were") refused (--partial writes the others)." }
            say(outcome)
            say("Created:    \(report.created)")
            say("Updated:    \(report.updated)")
            say("Unchanged:  \(report.unchanged)")
            say("Failed:     \(report.failed)")
            for problem in report.errors {
                say("line \(problem.line)\(problem.column.map { ", \(shown($0))" } ?? ""): \(shown(problem.message))")
            }
            let unlisted = report.failed - report.errors.count
            if unlisted > 0 { say("...and \(unlisted) more refused row\(unlisted == 1 ? "" : "s") (the first \(report.errors.count) are listed).") }
        }
    }

    struct Export: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.clients.export]
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write every client of the shop as CSV, to a file or standard output.",
            usage: """
                repairminder clients export [<file>] [--server <url>]
                """,
            discussion: """
                CSV (RFC 4180, UTF-8) with the header row email,first_name,last_name,phone,notes,created_at, which \
                `clients import` reads back. A cell starting with =, +, - or @ is written so that a spreadsheet does \
                not run it as a formula. Without a file the CSV goes to standard output (on a terminal, with its \
                control characters escaped).

                EXAMPLES:
                  repairminder clients export customers.csv
                  repairminder clients export > customers.csv
                """)
        @Argument(help: ArgumentHelp("The file to write (replaced if it exists).", valueName: "file")) var file: String?
        @OptionGroup var connection: ServerOptions

        func run() async throws {
            let file = file
            try await ClientsCommand.withClients(connection) { clients in
                guard let file else {
                    Self.write(try await clients.export())
                    return
                }
                Terminal.note("Exporting...")
                let url = URL(fileURLWithPath: file)
                try await clients.export(to: url)
                let rows = max(CSVRecords.count(in: (try? Data(contentsOf: url)) ?? Data()) - 1, 0)
                Terminal.note("Wrote \(rows) client\(rows == 1 ? "" : "s") to \(file).")
            }
        }

        /// The CSV on standard output: as it is into a pipe or a file, each line escaped as
        /// `say` does on a terminal (a client's notes are the shop's, not this program's).
        static func write(_ csv: Data) {
            guard isatty(STDOUT_FILENO) != 0 else {
                FileHandle.standardOutput.write(csv)
                return
            }
            let text = String(decoding: csv, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0) {
                say(String(line))
            }
        }
    }
}

/// Counts the records of a CSV file (RFC 4180: a line break inside quotes is the cell's, not a
/// new record; blank lines are none), for the import's progress and the export's summary. The
/// server parses the file; this only counts.
enum CSVRecords {
    static func count(in data: Data) -> Int {
        var records = 0
        var quoted = false
        var started = false
        for byte in data {
            switch byte {
            case UInt8(ascii: "\""):
                quoted.toggle()
                started = true
            case UInt8(ascii: "\n") where !quoted:
                if started { records += 1 }
                started = false
            case UInt8(ascii: "\r") where !quoted:
                break
            default:
                started = true
            }
        }
        return records + (started ? 1 : 0)
    }
}
