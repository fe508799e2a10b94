import Crypto
import Foundation
import Hummingbird
import RepairMinderModels

/// The endpoints anyone may call: health, app configuration, company logos, the OpenAPI
/// document (docs/API.md §3.2, §6).
struct PublicController {
    let database: Database
    let accounts: AccountStore
    /// The enveloped config response body and its ETag, computed once at start-up.
    let config: (body: ByteBuffer, etag: String)
    /// The OpenAPI document, generated once at start-up.
    let openAPI: ByteBuffer
    /// Logo files are served only from inside this directory (the data directory).
    let logoDirectory: String
    /// Publishes the keys that verify access tokens.
    let signer: TokenSigner
    /// `/.well-known/apple-app-site-association`, encoded once.
    let appleAppSiteAssociation: ByteBuffer
    /// Whether a shutdown began: readiness and health answer 503 `draining`.
    let draining: Draining

    init(
        database: Database, accounts: AccountStore, serverURL: String, logoDirectory: String, signer: TokenSigner,
        rekiServed: Bool = true, appleAppIds: [String] = [], settings: ServerSettings? = nil, draining: Draining = Draining()
    ) throws {
        self.database = database
        self.draining = draining
        self.accounts = accounts
        self.logoDirectory = logoDirectory
        self.signer = signer
        // REKI's reset mail links to /reset-password: the app opens it when installed.
        appleAppSiteAssociation = ByteBuffer(
            bytes: try JSONEncoder().encode(AppleAppSiteAssociation(appIds: appleAppIds, paths: ["/reset-password", "/invite", ClientPortal.pagePath])))
        openAPI = ByteBuffer(bytes: try OpenAPIDocument.json(serverURL: serverURL, includingREKI: rekiServed, settings: settings))
        let json = try AppConfig.bundledJSON()
        // Refuse to start with a config file the SDK could not decode.
        _ = try JSONDecoder().decode(AppConfig.self, from: json)
        var body = ByteBuffer(string: #"{"success":true,"data":"#)
        body.writeBytes(json)
        body.writeString("}")
        let digest = SHA256.hash(data: Data(buffer: body)).hexString
        config = (body, "\"\(digest.prefix(32))\"")
    }

    func mount(on routes: RouteMounter) {
        routes.on(Routes.public.health, respond: health)
        routes.on(Routes.public.readiness, respond: health)
        routes.on(Routes.public.liveness) { _ in
            .envelope(HealthResponse(status: "ok", version: repairMinderVersion, database: nil))
        }
        routes.on(Routes.public.config, respond: appConfig)
        routes.on(Routes.public.companyLogo, respond: logo)
        routes.on(Routes.public.openAPI) { [openAPI] _ in
            Response(
                status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: openAPI))
        }
        routes.on(Routes.public.jwks) { [signer] _ in
            Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "public, max-age=300"],
                body: .init(byteBuffer: ByteBuffer(bytes: signer.publishedJSON)))
        }
        routes.on(Routes.public.appleAppSiteAssociation) { [appleAppSiteAssociation] _ in
            Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "public, max-age=3600"],
                body: .init(byteBuffer: appleAppSiteAssociation))
        }
    }

    /// Health and readiness: 200 while the database answers and no shutdown began; else 503,
    /// `status` saying which (`draining` first: a load balancer should stop either way).
    @Sendable func health(_ call: RouteCall<EmptyPayload>) async throws -> Response {
        let answering = await database.isAnswering()
        let database = answering ? "ok" : "unavailable"
        if !answering { call.context.logger.error("Health check: the database does not answer") }
        if answering, !draining.isDraining {
            return .envelope(HealthResponse(status: "ok", version: repairMinderVersion, database: database))
        }
        let status = draining.isDraining ? "draining" : "unavailable"
        let body = HealthFailure(data: HealthResponse(status: status, version: repairMinderVersion, database: database))
        return .json(body, status: .serviceUnavailable, headers: [.retryAfter: "5"])
    }

    @Sendable func appConfig(_ call: RouteCall<EmptyPayload>) async throws -> Response {
        var headers: HTTPFields = [.cacheControl: "public, max-age=86400", .eTag: config.etag]
        if let ifNoneMatch = call.request.headers[.ifNoneMatch], Self.matches(ifNoneMatch, etag: config.etag) {
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

    @Sendable func logo(_ call: RouteCall<EmptyPayload>) async throws -> Response {
        guard let company = try await accounts.company(id: try call.parameter("id")),
            let path = company.logoUrl, !CompanyLogo.isRemote(path),
            CompanyLogo.isInside(path, directory: logoDirectory),
            let contentType = CompanyLogo.contentType(forPath: path),
            let data = FileManager.default.contents(atPath: path)
        else { throw APIError.notFound }
        var headers: HTTPFields = [.contentType: contentType, .cacheControl: "public, max-age=3600"]
        headers[.xContentTypeOptions] = "nosniff"
        // An SVG is a document that could run script from the API's origin: forbid everything but its own styles.
        if contentType == "image/svg+xml" { headers[.contentSecurityPolicy] = "default-src 'none'; style-src 'unsafe-inline'" }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// The 503 answer: a failure envelope that still carries the health data.
struct HealthFailure: Encodable {
    let success = false
    let error: String
    let code = ErrorCode.serviceUnavailable
    let data: HealthResponse

    /// Why, from `data`: shutting down, or the database.
    init(data: HealthResponse) {
        error = data.status == "draining" ? "The server is shutting down" : "The database is unavailable"
        self.data = data
    }
}
