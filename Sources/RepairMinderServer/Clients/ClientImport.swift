import CSV
import Foundation
import RepairMinderModels
import SQLKit

/// `POST /api/clients/import` (docs/API.md §14): rows of a CSV file matched to the shop's
/// clients by address, created or updated in one transaction; with a refused row nothing is
/// written unless `partial`, and a dry run writes nothing.
struct ClientImport: Sendable {
    let database: Database
    /// Rows a file may have (docs/API.md §7).
    static let maxRows = 50_000
    /// Rows inserted per statement.
    private static let insertBatch = 100
    /// Addresses looked up per statement.
    private static let lookupBatch = 500

    struct Options: Sendable {
        var dryRun = false
        var partial = false
    }

    /// A row that passed its checks; a nil field keeps the client's value (an empty cell, or a
    /// column the file does not have).
    struct Row: Sendable {
        var line: Int
        var email: String
        var firstName: String?
        var lastName: String?
        var phone: String?
        var notes: String?
    }

    /// The file's good rows and its refused ones.
    struct Parsed: Sendable {
        var rows: [Row] = []
        var problems: [ClientImportProblem] = []
        var failed = 0

        mutating func refuse(line: Int, column: String?, _ message: String) {
            failed += 1
            if problems.count < ClientImportReport.listedErrors { problems.append(.init(line: line, column: column, message: message)) }
        }
    }

    func run(_ file: CSVFile, options: Options, by staff: AuthenticatedStaff, device: ClientDevice, now: Double) async throws
        -> ClientImportReport
    {
        let parsed = try Self.parse(file.text)
        let companyId = staff.company.id
        return try await database.transaction(serializedOn: "clients:" + companyId) { db in
            let existing = try await Self.existing(parsed.rows.map(\.email), companyId: companyId, on: db)
            var creates: [ClientStore.NewClient] = [], updates: [(ClientRecord, Row)] = [], unchanged = 0
            for row in parsed.rows {
                if let client = existing[ClientKeys.key(row.email) ?? ""] {
                    if Self.changes(client, row) { updates.append((client, row)) } else { unchanged += 1 }
                } else {
                    creates.append(.init(email: row.email, firstName: row.firstName, lastName: row.lastName, phone: row.phone, notes: row.notes))
                }
            }
            let writes = !options.dryRun && (parsed.failed == 0 || options.partial)
            let report = ClientImportReport(
                created: creates.count, updated: updates.count, unchanged: unchanged, failed: parsed.failed, errors: parsed.problems,
                written: writes)
            guard writes else { return report }
            for start in stride(from: 0, to: creates.count, by: Self.insertBatch) {
                try await ClientStore.insert(
                    Array(creates[start..<min(start + Self.insertBatch, creates.count)]), companyId: companyId, now: now, on: db)
            }
            for (client, row) in updates { try await Self.update(client, with: row, now: now, on: db) }
            try await ActivityLog.record(
                .clientsImported, userId: staff.user.id, device: device, at: now, actor: staff,
                detail: ["created": "\(report.created)", "updated": "\(report.updated)", "unchanged": "\(report.unchanged)", "failed": "\(report.failed)"],
                on: db)
            return report
        }
    }

    /// The shop's live clients with these addresses, by address key.
    private static func existing(_ emails: [String], companyId: String, on db: any SQLDatabase) async throws -> [String: ClientRecord] {
        var found: [String: ClientRecord] = [:]
        let keys = emails.compactMap { ClientKeys.key($0) }
        for start in stride(from: 0, to: keys.count, by: lookupBatch) {
            let batch = Array(keys[start..<min(start + lookupBatch, keys.count)])
            for client in try await db.raw(
                "SELECT \(ClientRecord.columns) FROM clients WHERE company_id = \(bind: companyId) AND deleted_at IS NULL AND email_key IN (\(binds: batch))"
            ).all(decoding: ClientRecord.self, with: ClientRecord.decoder) {
                found[ClientKeys.key(client.email) ?? ""] = client
            }
        }
        return found
    }

    /// Whether `row` changes any of `client`'s fields.
    private static func changes(_ client: ClientRecord, _ row: Row) -> Bool {
        func differs(_ new: String?, _ old: String?) -> Bool { new != nil && new != old }
        return differs(row.firstName, client.firstName) || differs(row.lastName, client.lastName) || differs(row.phone, client.phone)
            || differs(row.notes, client.notes)
    }

    private static func update(_ client: ClientRecord, with row: Row, now: Double, on db: any SQLDatabase) async throws {
        let firstName = row.firstName ?? client.firstName, lastName = row.lastName ?? client.lastName
        let phone = row.phone ?? client.phone
        try await db.raw(
            """
            UPDATE clients SET first_name = \(bind: firstName), first_name_key = \(bind: ClientKeys.key(firstName)),
                last_name = \(bind: lastName), last_name_key = \(bind: ClientKeys.key(lastName)),
                name_key = \(bind: ClientKeys.name(firstName: firstName, lastName: lastName, email: client.email)),
                phone = \(bind: phone), phone_digits = \(bind: ClientKeys.digits(phone)), notes = \(bind: row.notes ?? client.notes),
                updated_at = \(bind: now)
            WHERE id = \(bind: client.id)
            """
        ).run()
    }
}

extension ClientImport {
    /// The rules of each column the file may have, those of `POST /api/clients`'s fields;
    /// `created_at` (the export's) is read over, so an export imports unchanged.
    private static let rules: [String: StringRule] = [
        "email": ClientFieldRules.email, "first_name": ClientFieldRules.name, "last_name": ClientFieldRules.name,
        "phone": ClientFieldRules.phone, "notes": ClientFieldRules.notes,
    ]

    /// Reads `text`: 400 `VALIDATION_ERROR` for a file that cannot be read at all (no header,
    /// an unknown or repeated column, no `email` column, too many rows, broken quoting); each
    /// row's own problems are the report's.
    static func parse(_ text: String) throws -> Parsed {
        let body = text.hasPrefix("\u{FEFF}") ? String(text.unicodeScalars.dropFirst()) : text
        let reader: CSVReader
        do {
            reader = try CSVReader(string: body)
        } catch {
            throw APIError.validation("The file is not valid CSV")
        }
        guard let header = reader.next(), header.contains(where: { !$0.isEmpty }) else {
            throw APIError.validation("The file is empty: its first line must name the columns (\(ClientCSV.columns.joined(separator: ",")))")
        }
        let names = header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        for (index, name) in names.enumerated() {
            guard ClientCSV.columns.contains(name) else {
                throw APIError.validation(
                    "Unknown column \"\(TextCharacters.escaped(String(name.prefix(40))))\": the columns are \(ClientCSV.columns.joined(separator: ", "))")
            }
            if names[..<index].contains(name) { throw APIError.validation("The column \(name) is there twice") }
        }
        guard let emailColumn = names.firstIndex(of: "email") else { throw APIError.validation("The file has no email column") }
        var parsed = Parsed(), line = ClientCSV.lineCount(of: header), seen: [String: Int] = [:], rowCount = 0
        // `line` is where the last row read ends: the header is line 1, a row may span several.
        while let fields = reader.next() {
            let start = line + 1
            line += ClientCSV.lineCount(of: fields)
            if fields.allSatisfy(\.isEmpty) { continue }
            rowCount += 1
            guard rowCount <= maxRows else { throw APIError.validation("The file has more than \(maxRows) rows: split it") }
            guard fields.count == names.count else {
                parsed.refuse(line: start, column: nil, "The row has \(fields.count) cells; the header has \(names.count)")
                continue
            }
            guard let row = check(fields, names: names, emailColumn: emailColumn, line: start, into: &parsed) else { continue }
            let key = ClientKeys.key(row.email) ?? ""
            if let first = seen[key] {
                parsed.refuse(line: start, column: "email", "This address is on line \(first) already")
                continue
            }
            seen[key] = start
            parsed.rows.append(row)
        }
        if reader.error != nil { throw APIError.validation("The file is not valid CSV after line \(line)") }
        return parsed
    }

    /// The row's cells through their columns' rules; nil (and the problem noted) when one breaks it.
    private static func check(_ fields: [String], names: [String], emailColumn: Int, line: Int, into parsed: inout Parsed) -> Row? {
        var values: [String: String] = [:]
        for (name, cell) in zip(names, fields) {
            guard let rule = rules[name] else { continue }
            let cell = ClientCSV.unescaped(cell)
            if FieldRules.trimmingWhitespace(cell).isEmpty {
                if name == "email" {
                    parsed.refuse(line: line, column: name, "email is required")
                    return nil
                }
                continue
            }
            do {
                values[name] = try rule.check(cell, name)
            } catch {
                parsed.refuse(line: line, column: name, error.message)
                return nil
            }
        }
        guard let email = values["email"] else { return nil }
        return Row(
            line: line, email: email, firstName: values["first_name"], lastName: values["last_name"], phone: values["phone"],
            notes: values["notes"])
    }
}
