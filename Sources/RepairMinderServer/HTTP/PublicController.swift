import Crypto
import Foundation
import Hummingbird
import RepairMinderModels

/// The endpoints anyone may call: health, app configuration, company logos (API.md §3.1, §6).
struct PublicController {
    let services: AuthServices
    /// The enveloped config response body and its ETag, computed once at start-up.
    let config: (body: ByteBuffer, etag: String)

    init(services: AuthServices) throws {
        self.services = services
        let json = try AppConfig.bundledJSON()
        // Refuse to start with a config file the SDK could not decode.
        _ = try JSONDecoder().decode(AppConfig.self, from: json)
        var body = ByteBuffer(string: #"{"success":true,"data":"#)
        body.writeBytes(json)
        body.writeString("}")
        let digest = SHA256.hash(data: Data(buffer: body)).hexString
        config = (body, "\"\(digest.prefix(32))\"")
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("api/health", use: health)
        router.get("api/config", use: appConfig)
        router.get("api/branding/:id/logo", use: logo)
    }

    @Sendable func health(_ request: Request, context: AppRequestContext) async throws -> Response {
        if await services.database.isAnswering() {
            return .envelope(HealthResponse(status: "ok", version: repairMinderVersion, database: "ok"))
        }
        context.logger.error("Health check: the database does not answer")
        let body = HealthFailure(data: HealthResponse(status: "unavailable", version: repairMinderVersion, database: "unavailable"))
        return .json(body, status: .serviceUnavailable)
    }

    @Sendable func appConfig(_ request: Request, context: AppRequestContext) async throws -> Response {
        var headers: HTTPFields = [.cacheControl: "public, max-age=86400", .eTag: config.etag]
        if let ifNoneMatch = request.headers[.ifNoneMatch], Self.matches(ifNoneMatch, etag: config.etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: config.body))
    }

    /// `If-None-Match` semantics: a list of (possibly weak) tags, or `*`.
    static func matches(_ header: String, etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag
        }
    }

    @Sendable func logo(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let id = context.parameters.get("id"),
            let company = try await services.accounts.company(id: id),
            let path = company.logoUrl, !CompanyLogo.isRemote(path),
            let contentType = CompanyLogo.contentType(forPath: path),
            let data = FileManager.default.contents(atPath: path)
        else { throw APIError.notFound }
        return Response(
            status: .ok, headers: [.contentType: contentType, .cacheControl: "public, max-age=3600"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// `GET /api/health`'s data (API.md §6).
struct HealthResponse: Codable, Sendable {
    let status: String
    let version: String
    let database: String
}

/// The 503 answer: a failure envelope that still carries the health data.
struct HealthFailure: Encodable {
    let success = false
    let error = "The database is unavailable"
    let code = "SERVICE_UNAVAILABLE"
    let data: HealthResponse
}
