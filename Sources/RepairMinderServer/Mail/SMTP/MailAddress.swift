import Foundation
import RepairMinderModels

/// A mailbox as RFC 5322 writes it: `Repair Minder <no-reply@example.com>` or a bare address.
public struct MailAddress: Sendable, Equatable {
    public let name: String?
    public let address: String

    /// Parses `Name <address>` or `address`; refuses anything that could break a header line or
    /// an SMTP command (CR, LF, angle brackets inside the address, no `@`).
    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !MailHeader.hasLineBreak(trimmed) else { throw MailFormatError("a mail address must be one line", value: trimmed) }
        if trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") {
            let name = trimmed[..<open].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            self.name = name.isEmpty ? nil : name
            address = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
        } else {
            name = nil
            address = trimmed
        }
        guard Self.isPlausible(address) else { throw MailFormatError("not a mail address", value: address) }
    }

    /// A recipient as stored: exactly a plain address (docs/API.md §1's rule), never parsed
    /// for a mailbox inside it, so the address that was limited is the one mailed.
    public init(recipient text: String) throws {
        guard EmailAddress.isValid(text), FieldRules.trimmingWhitespace(text) == text else {
            throw MailFormatError("not a plain mail address", value: text)
        }
        name = nil
        address = text
    }

    private static func isPlausible(_ address: String) -> Bool {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
            && !address.contains { $0 == "<" || $0 == ">" || $0 == " " || $0 == "," || $0.asciiValue.map { $0 < 0x21 } == true }
    }

    /// The header form: the name as an RFC 2047 encoded word when it is not plain ASCII.
    var headerValue: String {
        guard let name else { return address }
        let plain = name.allSatisfy { $0.isASCII && $0 != "\"" && $0 != "\\" }
        return "\(plain ? "\"\(name)\"" : MailHeader.encodedWords(name)) <\(address)>"
    }
}


/// A message that cannot be written safely (a line break in a header, a malformed address).
/// A value that cannot be written into a message safely. `description` quotes the value (for
/// the operator who set `--mail-from`); `summary` does not (for the log and the queue, which
/// never hold an address).
public struct MailFormatError: Error, CustomStringConvertible {
    public let summary: String
    public let description: String
    init(_ summary: String, value: String) {
        self.summary = summary
        description = "\(summary): \(value.debugDescription)"
    }
}
