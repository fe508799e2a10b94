import Foundation
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import Testing

@testable import RepairMinderServer

/// The server serves exactly the table's served routes, and the OpenAPI document describes them.
@Suite struct RouteTableTests {
    /// A router built as the application builds it.
    static func withRouter(_ body: (Router<AppRequestContext>) throws -> Void) async throws {
        let settings = TestServer.defaultSettings()
        defer { try? FileManager.default.removeItem(atPath: settings.dataDirectory) }
        let database = try await Database.openMigrated(settings: settings, logger: TestServer.quietLogger)
        let parts = ServerParts(
            settings: settings, database: database, hasher: PasswordHasher(cost: 4),
            signer: try await TokenSigner(settings: settings, now: Date().timeIntervalSince1970), encryptionKeys: EncryptionKeys(current: String(repeating: "e", count: 32)), clock: .system,
            mail: MailQueue(database: database, encryptionKey: String(repeating: "e", count: 32)), metrics: ServerMetrics(),
            consoleTemplates: try await ConsoleTemplates.bundled())
        let result = Result { try body(try buildRouter(parts)) }
        await database.close()
        await parts.hasher.shutdown()
        try result.get()
    }

    @Test func theQuarantineChecksLookupFindsWhatTheFullScanFinds() {
        let paths = Routes.all.compactMap { $0.path.rendered($0.path.parameterNames.map { _ in "x1" }) }
            + ["/api/clients/search", "//api//auth/me/", "/api/nothing/here", "/", "/auth/login"]
        for path in paths {
            let normalised = "/" + path.split(separator: "/").joined(separator: "/")
            #expect(Routes.firstRoute(matching: normalised)?.description == Routes.routes(matching: normalised).first?.description, "\(path)")
        }
        #expect(Routes.firstRoute(matching: "/api/auth/me")?.path.description == "/api/auth/me")
    }

    @Test func everyServedRouteIsMountedAndNothingElse() async throws {
        try await Self.withRouter { router in
            // The web console's pages are beside the table too, all under its own root.
            let mounted = Set(router.routes.map { "\($0.method.rawValue) \($0.path)" }.filter { !$0.contains(" \(Console.root)") })
            #expect(router.routes.contains { "\($0.path)" == "\(Console.root)/sign-in" })
            let served = Set(Routes.served.map(\.description))
            // Beside the table, and only these: the HTML pages REKI's reset mail, an invitation
            // mail and a portal invitation link to.
            // And the OpenID Connect provider's endpoints (docs/API.md §16), in OAuth's own shapes.
            let pages = Set([REKIResetPageController.path, InvitationPageController.path].flatMap { ["GET \($0)", "POST \($0)"] })
                .union(["GET \(ClientPortal.pagePath)"])
                .union(["/oauth/authorize", "/oauth/userinfo", "/oauth/logout"].flatMap { ["GET \($0)", "POST \($0)"] })
                .union(["/oauth/authorize/decision", "/oauth/token", "/oauth/revoke", "/oauth/introspect"].map { "POST \($0)" })
                .union(["GET /.well-known/openid-configuration"])
            #expect(mounted.subtracting(served) == pages, "mounted but not in the table as served")
            #expect(served.subtracting(mounted).isEmpty, "served in the table but not mounted")
            #expect(mounted.count == served.count + pages.count)
            try router.validate()
        }
    }

    /// What the start-up check compares: a served route no controller mounted is named.
    @Test func anUnmountedRouteIsNamed() throws {
        let mounted = MountedRoutes()
        for route in Routes.served.dropFirst() { mounted.record(route) }
        let first = try #require(Routes.served.first)
        #expect(mounted.missing(from: Routes.served).map(\.description) == [first.description])
        mounted.record(first)
        #expect(mounted.missing(from: Routes.served).isEmpty)
        #expect("\(UnmountedRoutes(routes: ["GET /api/x"]))" == "the route table serves GET /api/x, which no controller mounted")
    }

    @Test func clientOnlyRoutesAreNotFoundButStillQuarantined() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn().string("token"))
            try await client.send(.get, "/api/orders", bearer: token).expectFailure(.notFound, "NOT_FOUND")
            let suspended = try #require(try await client.signIn("owner@suspended.test", "suspended password").string("token"))
            try await client.send(.get, "/api/orders", bearer: suspended).expectFailure(.forbidden, "ACCOUNT_SUSPENDED")
            try await client.send(.post, "/api/orders/o-1/send-quote", bearer: suspended)
                .expectFailure(.forbidden, "ACCOUNT_SUSPENDED")
        }
    }

    @Test func theOpenAPIDocumentDescribesEveryServedRoute() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let reply = try await client.send(.get, "/api/openapi.json")
            #expect(reply.status == .ok)
            let document = reply.json
            #expect(document["openapi"] as? String == "3.1.0")
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            for route in Routes.served {
                let operation = try #require(paths[route.path.description]?[route.method.rawValue.lowercased()] as? [String: Any], "\(route)")
                let responses = try #require(operation["responses"] as? [String: Any])
                #expect(responses[String(route.successStatus)] != nil, "\(route)")
                #expect((operation["requestBody"] != nil) == (route.requestType != nil), "\(route)")
                if route.credential == .staff { #expect(operation["security"] != nil, "\(route)") }
                for failure in route.failures { #expect(responses[String(failure.status)] != nil, "\(route) \(failure.code)") }
                // Every failure has a schema: seed 002's shape under /auth/, the envelope elsewhere.
                for (status, response) in responses where status.hasPrefix("4") || status.hasPrefix("5") {
                    let content = (response as? [String: Any])?["content"] as? [String: Any]
                    let schema = (content?["application/json"] as? [String: Any])?["schema"] as? [String: Any]
                    let isREKI = Routes.REKI.contains(path: route.path.description)
                    if isREKI {
                        #expect(schema?["$ref"] as? String == "#/components/schemas/REKIErrorBody", "\(route) \(status)")
                    } else {
                        #expect((schema?["required"] as? [String])?.contains("code") == true, "\(route) \(status)")
                    }
                }
            }
            #expect(paths.values.map(\.count).reduce(0, +) == Routes.served.count)
            // Every $ref points at a schema the document has.
            let components = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
            let text = String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)
            let refs = text.matches(of: /#\\\/components\\\/schemas\\\/([A-Za-z]+)/).map { String($0.1) }
            #expect(!refs.isEmpty)
            for name in Set(refs) { #expect(components[name] != nil, "\(name)") }
        }
    }
}
