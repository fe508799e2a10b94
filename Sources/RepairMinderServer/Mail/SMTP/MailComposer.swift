import Foundation

/// Writes a `MailMessage` as the bytes of an RFC 5322 message: CRLF line endings, `Date`,
/// `Message-ID`, and a multipart/alternative body (plain text and HTML), each part
/// quoted-printable, so any text travels over 7-bit SMTP.
enum MailComposer {
    static func compose(
        _ message: MailMessage, from: MailAddress, date: Date, messageID: String, boundary: String
    ) throws -> String {
        let to = try MailAddress(recipient: message.to)
        var lines = [
            "From: \(from.headerValue)",
            "To: \(to.headerValue)",
            "Subject: \(try MailHeader.value(message.subject))",
            "Date: \(rfc5322Date(date))",
            "Message-ID: <\(try MailHeader.value(messageID))>",
            "MIME-Version: 1.0",
            "Content-Type: multipart/alternative; boundary=\"\(boundary)\"",
            "",
            "--\(boundary)",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: quoted-printable",
            "",
            quotedPrintable(message.text),
            "--\(boundary)",
            "Content-Type: text/html; charset=utf-8",
            "Content-Transfer-Encoding: quoted-printable",
            "",
            quotedPrintable(html(message.text)),
            "--\(boundary)--",
        ]
        lines.append("")
        return lines.joined(separator: "\r\n")
    }

    /// The plain text as simple HTML (`mail-message.mustache`): a paragraph per
    /// blank-line-separated block, its lines kept.
    static func html(_ text: String) -> String {
        let paragraphs = text.components(separatedBy: "\n\n").map { ["lines": $0.components(separatedBy: "\n")] }
        return PageTemplates.render(["paragraphs": paragraphs], with: "mail-message")
    }

    /// RFC 2045 quoted-printable with CRLF line endings and soft breaks before 76 characters.
    static func quotedPrintable(_ text: String) -> String {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
        return normalized.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var out = "", width = 0
            let bytes = Array(line.utf8)
            for (index, byte) in bytes.enumerated() {
                let isLast = index == bytes.count - 1
                let literal = (byte >= 33 && byte <= 126 && byte != UInt8(ascii: "="))
                    || ((byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")) && !isLast)
                let piece = literal ? String(UnicodeScalar(byte)) : String(format: "=%02X", byte)
                if width + piece.count > 75 {
                    out += "=\r\n"
                    width = 0
                }
                out += piece
                width += piece.count
            }
            return out
        }.joined(separator: "\r\n")
    }

    /// `Mon, 23 Nov 2026 01:50:26 +0000`.
    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: date)
    }

    /// SMTP's DATA transparency (RFC 5321 §4.5.2): a line that starts with "." gets another.
    static func dotStuffed(_ message: String) -> String {
        var stuffed = message.replacingOccurrences(of: "\r\n.", with: "\r\n..")
        if stuffed.hasPrefix(".") { stuffed = "." + stuffed }
        return stuffed
    }
}
