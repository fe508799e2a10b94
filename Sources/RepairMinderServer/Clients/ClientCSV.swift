import CSV
import Foundation

/// The clients' CSV file (docs/API.md §14): its columns, and cells that a spreadsheet cannot
/// run as formulas (OWASP's CSV injection), written and read back unchanged.
enum ClientCSV {
    /// The export's header row, in order; the import takes these by name.
    static let columns = ["email", "first_name", "last_name", "phone", "notes", "created_at"]

    /// What a spreadsheet starts a formula with (OWASP: `=`, `+`, `-`, `@`, tab, carriage return).
    private static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// Whether `cell` needs a leading `'`: it starts a formula, or it is such a cell already
    /// behind a `'` (which the import would otherwise take for the escape).
    private static func needsEscape(_ cell: Substring.UnicodeScalarView) -> Bool {
        guard let first = cell.first else { return false }
        if formulaStarts.contains(first) { return true }
        return first == "'" && needsEscape(cell.dropFirst())
    }

    /// `cell` as the export writes it: behind a `'` when a spreadsheet would run it.
    static func escaped(_ cell: String) -> String {
        needsEscape(Substring(cell).unicodeScalars) ? "'" + cell : cell
    }

    /// The inverse of `escaped`: an exported file imports unchanged.
    static func unescaped(_ cell: String) -> String {
        let scalars = Substring(cell).unicodeScalars
        guard scalars.first == "'", needsEscape(scalars.dropFirst()) else { return cell }
        return String(cell.unicodeScalars.dropFirst())
    }

    /// `rows` as CSV lines (RFC 4180: CRLF, quoted where needed), each cell escaped.
    static func lines(_ rows: [[String]]) throws -> Data {
        let stream = OutputStream(toMemory: ())
        stream.open()
        let writer = try CSVWriter(stream: stream, newline: .crlf)
        for row in rows { try writer.write(row: row.map(escaped)) }
        // The writer puts the line break before each row but the first: this chunk ends its last.
        stream.write(Array("\r\n".utf8), maxLength: 2)
        stream.close()
        return stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data ?? Data()
    }

    /// How many lines `text` spans: one, and one more for each line break in it (CRLF counts once).
    static func lineCount(of fields: [String]) -> Int {
        var lines = 1
        for field in fields {
            var afterCR = false
            for scalar in field.unicodeScalars {
                if scalar == "\r" || (scalar == "\n" && !afterCR) { lines += 1 }
                afterCR = scalar == "\r"
            }
        }
        return lines
    }
}
