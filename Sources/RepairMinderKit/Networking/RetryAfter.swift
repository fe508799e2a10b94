import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `Retry-After` (RFC 9110 §10.2.3): how many seconds a 429 or a 503 asks the client to wait.
/// The one reading of the header for every client of the SDK (`APIClient`, `REKIClient`, and
/// the retries of `RequestSender`).
enum RetryAfter {
    /// The wait `response` asks for; nil when it asks for none or its value cannot be read.
    static func seconds(in response: HTTPURLResponse) -> Int? {
        guard let value = response.value(forHTTPHeaderField: "Retry-After") else { return nil }
        // An HTTP-date is counted from the answer's own `Date` (the server's clock) when it has
        // one, so a device whose clock is off still waits as long as the server meant.
        let sentAt = response.value(forHTTPHeaderField: "Date").flatMap(httpDate) ?? Date()
        return seconds(value, sentAt: sentAt)
    }

    /// The seconds `value` asks for, `delta-seconds` or an HTTP-date (a date already past is 0);
    /// nil for anything else: a sign, a fraction or garbage is not a wait the server asked for.
    static func seconds(_ value: String, sentAt: Date) -> Int? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            // Too many digits for an Int: as RFC 9111 §1.2.2 says for caches, 2^31 is "forever".
            return Int(text).map { min($0, largestDelta) } ?? largestDelta
        }
        guard let date = httpDate(text) else { return nil }
        return max(0, Int(date.timeIntervalSince(sentAt).rounded(.up)))
    }

    private static let largestDelta = 2_147_483_648

    /// An HTTP-date in any of the three forms a recipient must accept (RFC 9110 §5.6.7): the
    /// IMF-fixdate, and the obsolete RFC 850 and asctime forms.
    static func httpDate(_ text: String) -> Date? {
        // asctime pads a one-digit day with a space: fold runs of spaces so one format fits.
        let folded = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        // A formatter of its own each time: this runs only for a refusal, and formatters are
        // not Sendable.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEEE, dd-MMM-yy HH:mm:ss 'GMT'", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: folded) { return date }
        }
        return nil
    }
}
