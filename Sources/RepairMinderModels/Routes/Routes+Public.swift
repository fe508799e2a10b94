/// Endpoints anyone may call (docs/API.md §6, §3.2's logos). Prometheus' metrics are not here:
/// they have a listener of their own (`--metrics-address`), never the API's.
extension Routes {
    public struct Public: RouteFeature {
        public static let name = "Public"
        public let health = Route<EmptyPayload, HealthResponse>(
            .get, "/api/health", .none, "Whether the server and its database answer",
            failures: [.serviceUnavailable])
        /// Liveness: the process serves HTTP (no database asked): restart it when this fails.
        public let liveness = Route<EmptyPayload, HealthResponse>(
            .get, "/livez", .none, "Whether the process serves requests (the database is not asked): restart it when this fails")
        /// Readiness: send it requests only while this answers 200.
        public let readiness = Route<EmptyPayload, HealthResponse>(
            .get, "/readyz", .none,
            "Whether to send this instance requests: 503 while the database does not answer and once it began shutting down (draining)",
            failures: [.serviceUnavailable])
        public let config = Route<EmptyPayload, AppConfig>(
            .get, "/api/config", .none, "App configuration (statuses, workflows, ...), with an ETag")
        public let companyLogo = Route<EmptyPayload, BinaryFile>(
            .get, "/api/branding/{id}/logo", .none, "A company's logo image",
            format: .binary(["image/png", "image/jpeg", "image/svg+xml", "image/webp", "image/gif"]),
            failures: [.notFound])
        public let openAPI = Route<EmptyPayload, JSONValue>(
            .get, "/api/openapi.json", .none, "This document: the API as OpenAPI 3.1", format: .plain)
        /// Where other services find the keys that verify access tokens (RFC 8414's well-known place).
        public let jwks = Route<EmptyPayload, JSONValue>(
            .get, "/.well-known/jwks.json", .none,
            "The public keys that verify access tokens now, as a JWK Set (never a private or symmetric key); cacheable for 5 minutes",
            format: .plain)
        /// What lets an iOS app use this domain's passkeys and open its reset links (`--apple-app-ids`).
        public let appleAppSiteAssociation = Route<EmptyPayload, AppleAppSiteAssociation>(
            .get, "/.well-known/apple-app-site-association", .none,
            "The iOS apps this domain vouches for: webcredentials (passkeys) and applinks (the reset-link path)", format: .plain)
    }
    /// Public: the routes of this feature.
    public static let `public` = Public()
}
