import Foundation
import HTTPTypes
import Hummingbird
import RepairMinderModels

/// A refusal of the OAuth endpoints in RFC 6749 §5.2's shape, `{"error", "error_description"}`,
/// not the API's envelope: what OAuth and OpenID Connect libraries read (docs/API.md §16.4).
struct OAuthError: Error, Equatable {
    let error: String
    let description: String
    var status: HTTPResponse.Status = .badRequest

    static func invalidRequest(_ description: String) -> OAuthError { OAuthError(error: "invalid_request", description: description) }
    static func invalidGrant(_ description: String) -> OAuthError { OAuthError(error: "invalid_grant", description: description) }
    static func invalidScope(_ description: String) -> OAuthError { OAuthError(error: "invalid_scope", description: description) }
    static func unsupportedGrantType(_ type: String) -> OAuthError {
        OAuthError(error: "unsupported_grant_type", description: "grant_type \(type) is not supported: use authorization_code or refresh_token")
    }
    /// RFC 6749 §5.2: 401, with the scheme the client should authenticate with.
    static func invalidClient(_ description: String) -> OAuthError {
        OAuthError(error: "invalid_client", description: description, status: .unauthorized)
    }
    static func invalidToken(_ description: String) -> OAuthError {
        OAuthError(error: "invalid_token", description: description, status: .unauthorized)
    }
    static let rateLimited = OAuthError(error: "slow_down", description: "Too many requests; wait a minute", status: .tooManyRequests)

    /// The refusal as an answer: JSON, never cached; a 401 says how to authenticate (RFC 6749
    /// §5.2 for the client, RFC 6750 §3 for a bearer).
    func response(bearer: Bool = false) -> Response {
        var headers: HTTPFields = [.contentType: "application/json", .cacheControl: "no-store", OAuthJSON.pragma: "no-cache"]
        if status == .tooManyRequests { headers[.retryAfter] = "60" }
        if status == .unauthorized {
            headers[.wwwAuthenticate] =
                bearer
                ? "Bearer realm=\"repairminder\", error=\"\(error)\", error_description=\"\(description.replacingOccurrences(of: "\"", with: "'"))\""
                : "Basic realm=\"repairminder\""
        }
        return OAuthJSON.response(["error": .string(error), "error_description": .string(description)], status: status, headers: headers)
    }
}

/// The JSON answers of the OAuth endpoints: token responses and the like are never cached
/// (RFC 6749 §5.1).
enum OAuthJSON {
    static let pragma = HTTPField.Name("Pragma")!
    static func response(_ object: [String: JSONValue], status: HTTPResponse.Status = .ok, headers: HTTPFields? = nil) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(object)) ?? Data("{}".utf8)
        return Response(
            status: status, headers: headers ?? [.contentType: "application/json", .cacheControl: "no-store", OAuthJSON.pragma: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
