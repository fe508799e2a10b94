import Crypto
import Foundation
import RepairMinderModels

/// An authorization request (docs/API.md §16.3), read from the query of a GET or the form of a
/// POST and checked in two stages: first the app and its redirect URI (`App`), until which a
/// problem is a page and never a redirect; then the rest, whose problems go back to the
/// app's redirect URI (`Redirecting`).
struct OAuthAuthorizationRequest: Sendable {
    let parameters: [String: String]
    let app: OAuthAppRecord
    let redirectUri: String
    let state: String?

    /// The parameters the flow carries on, besides those the checks read.
    var responseType: String? { parameters["response_type"] }
    var scopes: [String] { (parameters["scope"] ?? "").split(separator: " ").map(String.init) }
    var nonce: String? { parameters["nonce"] }
    var codeChallenge: String { parameters["code_challenge"] ?? "" }
    var prompts: Set<String> { Set((parameters["prompt"] ?? "").split(separator: " ").map(String.init)) }
    var maxAge: Int? { parameters["max_age"].flatMap { Int($0) } }

    /// A problem before the redirect URI is known good: shown as a page.
    struct Unredirectable: Error {
        let message: String
    }

    /// Reads and checks the app and redirect URI of `parameters` (each given once: a repeated
    /// parameter is refused, RFC 6749 §3.1).
    static func read(_ parameters: [String: String], repeated: [String], apps: OAuthAppStore) async throws -> OAuthAuthorizationRequest {
        guard let clientId = parameters["client_id"], !clientId.isEmpty else {
            throw Unredirectable(message: "The app did not say who it is (client_id is missing). Go back to the app and try again.")
        }
        guard clientId.count <= 128, let app = try await apps.app(clientId: clientId) else {
            throw Unredirectable(message: "No app with this client_id is registered here. Ask the app's maker to check it.")
        }
        guard let redirectUri = parameters["redirect_uri"], !redirectUri.isEmpty else {
            throw Unredirectable(message: "The app did not say where to return (redirect_uri is missing).")
        }
        guard app.redirectUris.contains(where: { OAuthRedirectURI.matches(redirectUri, registered: $0) })
        else {
            throw Unredirectable(message: "This app may not send you back to \(redirectUri): it is not one of the app's registered addresses.")
        }
        if let twice = repeated.first(where: { ["client_id", "redirect_uri"].contains($0) }) {
            throw Unredirectable(message: "The request gives \(twice) more than once.")
        }
        return OAuthAuthorizationRequest(parameters: parameters, app: app, redirectUri: redirectUri, state: parameters["state"])
    }

    /// The rest of the request's checks, answered as RFC 6749 §4.1.2.1 errors to the app.
    func check(repeated: [String]) throws(OAuthError) {
        if let twice = repeated.first { throw .invalidRequest("\(twice) is given more than once") }
        guard responseType == "code" else {
            throw OAuthError(error: "unsupported_response_type", description: "Only response_type=code (the authorization code flow) is supported")
        }
        // PKCE (RFC 7636) for every app, public or confidential, S256 only.
        guard !codeChallenge.isEmpty else { throw .invalidRequest("code_challenge is required (PKCE with S256)") }
        guard parameters["code_challenge_method"] == "S256" else {
            throw .invalidRequest("code_challenge_method must be S256 (plain is not accepted)")
        }
        guard Self.isChallenge(codeChallenge) else {
            throw .invalidRequest("code_challenge must be the base64url SHA-256 of the verifier: 43 characters")
        }
        let known = Set(OAuthScope.all)
        guard !scopes.isEmpty else { throw .invalidScope("scope is required (openid, to sign people in)") }
        if let unknown = scopes.first(where: { !known.contains($0) }) { throw .invalidScope("\(unknown) is not a scope of this server") }
        if let refused = scopes.first(where: { !app.scopes.contains($0) }) { throw .invalidScope("This app may not ask for \(refused)") }
        if let nonce, nonce.count > 512 { throw .invalidRequest("nonce is too long (at most 512 characters)") }
        if let state, state.count > 1024 { throw .invalidRequest("state is too long (at most 1024 characters)") }
        let prompts = self.prompts
        if let unknown = prompts.first(where: { !["none", "login", "consent"].contains($0) }) {
            throw .invalidRequest("prompt \(unknown) is not supported: none, login or consent")
        }
        if prompts.contains("none"), prompts.count > 1 { throw .invalidRequest("prompt=none cannot be combined with another prompt") }
        if let raw = parameters["max_age"], Int(raw).map({ $0 >= 0 }) != true {
            throw .invalidRequest("max_age must be a whole number of seconds")
        }
    }

    /// Whether `text` is a base64url SHA-256: 43 characters of the unpadded alphabet.
    static func isChallenge(_ text: String) -> Bool {
        text.utf8.count == 43 && text.utf8.allSatisfy(Self.isBase64URL)
    }

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2d || byte == 0x5f
    }

    /// Whether `verifier` is a PKCE verifier (RFC 7636 §4.1: 43 to 128 of `A-Z a-z 0-9 - . _ ~`)
    /// whose S256 is `challenge`, compared in constant time.
    static func verifies(_ verifier: String, challenge: String) -> Bool {
        let allowed = verifier.utf8.allSatisfy { isBase64URL($0) || $0 == 0x2e || $0 == 0x7e }
        guard (43...128).contains(verifier.utf8.count), allowed else { return false }
        let computed = Data(SHA256.hash(data: Data(verifier.utf8))).base64URLEncoded()
        return SecretHashing.constantTimeEquals(computed, challenge)
    }

    /// The redirect URI with `parameters` added to its query (RFC 9207's `iss` among them).
    func redirect(with parameters: [(String, String)]) -> String {
        var components = URLComponents(string: redirectUri) ?? URLComponents()
        var items = components.queryItems ?? []
        items += parameters.map { URLQueryItem(name: $0.0, value: $0.1) }
        if let state { items.append(URLQueryItem(name: "state", value: state)) }
        components.queryItems = items
        // `+` means a space to form decoders: written out, as RFC 3986 allows in a query.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.string ?? redirectUri
    }
}
