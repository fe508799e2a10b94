import Foundation
import Hummingbird

/// The parameters of an OAuth request: a query, or an `application/x-www-form-urlencoded` body
/// (RFC 6749 §3.1, §3.2: `+` is a space, then percent-decoding). A parameter sent twice is kept
/// once and named in `repeated`, for the endpoint to refuse; an empty value counts as absent.
struct OAuthParameters: Sendable {
    var values: [String: String] = [:]
    var repeated: [String] = []

    subscript(name: String) -> String? { values[name] }

    /// The pairs of `raw`; nil when its percent-encoding is broken.
    init?(_ raw: Substring) {
        for pair in raw.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decoded(parts[0]), let value = Self.decoded(parts.count > 1 ? parts[1] : "") else { return nil }
            guard !value.isEmpty else { continue }
            if values[name] != nil { repeated.append(name) } else { values[name] = value }
        }
    }

    private static func decoded(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// The query of `request`.
    static func query(of request: Request) -> OAuthParameters? {
        OAuthParameters(Substring(request.uri.query ?? ""))
    }

    /// The form body of `request`, up to 64 KiB; nil unless it is `application/x-www-form-urlencoded`.
    static func form(of request: Request) async throws -> OAuthParameters? {
        let type = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard type == "application/x-www-form-urlencoded" else { return nil }
        var request = request
        let buffer = try await request.collectBody(upTo: 65_536)
        return OAuthParameters(Substring(String(buffer: buffer)))
    }
}
