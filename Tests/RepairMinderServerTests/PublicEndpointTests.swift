import Foundation
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import Testing

@testable import RepairMinderServer

/// `/api/config` and `/api/health` (docs/API.md §6).
@Suite struct PublicEndpointTests {
    @Test func configIsTheBundledFileWithCachingHeaders() async throws {
        let server = try await TestServer()
        try await server.run { client in
            try await client.client.execute(uri: "/api/config", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.cacheControl] == "public, max-age=86400")
                let etag = try #require(response.headers[.eTag])
                #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
                let envelope = try JSONDecoder().decode(Envelope<AppConfig>.self, from: Data(buffer: response.body))
                #expect(envelope.success)
                #expect(envelope.data == (try AppConfig.bundled()))
                #expect(envelope.data?.workflows == ["repair", "buyback"])
            }
        }
    }

    @Test func ifNoneMatchWithTheCurrentETagIs304AndAStaleOneIs200() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let etag = try await client.client.execute(uri: "/api/config", method: .get) { try #require($0.headers[.eTag]) }
            for header in [etag, "W/\(etag)", "\"stale\", \(etag)", "*"] {
                try await client.client.execute(uri: "/api/config", method: .get, headers: [.ifNoneMatch: header]) { response in
                    #expect(response.status == .notModified, "\(header)")
                    #expect(response.body.readableBytes == 0)
                    #expect(response.headers[.eTag] == etag)
                }
            }
            for header in ["\"stale\"", "W/\"stale\"", ""] {
                try await client.client.execute(uri: "/api/config", method: .get, headers: [.ifNoneMatch: header]) { response in
                    #expect(response.status == .ok, "\(header)")
                    #expect(response.body.readableBytes > 100)
                }
            }
        }
    }

    @Test func healthIs503WhenTheDatabaseDoesNotAnswer() async throws {
        let settings = TestServer.defaultSettings()
        defer { try? FileManager.default.removeItem(atPath: settings.dataDirectory) }
        let database = try await Database.openMigrated(settings: settings, logger: TestServer.quietLogger)
        let parts = ServerParts(
            settings: settings, database: database, hasher: PasswordHasher(cost: settings.bcryptCost),
            signer: try await TokenSigner(settings: settings, now: Date().timeIntervalSince1970), encryptionKeys: EncryptionKeys(current: String(repeating: "e", count: 32)), clock: .system,
            mail: MailQueue(database: database, encryptionKey: String(repeating: "e", count: 32)),
            consoleTemplates: try await ConsoleTemplates.bundled())
        let app = Application(router: try buildRouter(parts), logger: TestServer.quietLogger)
        try await app.test(.router) { client in
            let client = TestClient(client: client, settings: settings, mailbox: parts.mail)
            #expect(try await client.send(.get, "/api/health").string("database") == "ok")
            await database.close()
            let reply = try await client.send(.get, "/api/health")
            #expect(reply.status == .serviceUnavailable)
            #expect(reply.json["success"] as? Bool == false)
            #expect(reply.string("database") == "unavailable")
        }
        await parts.hasher.shutdown()
    }

    /// A request that needs the database while it does not answer: 503 `SERVICE_UNAVAILABLE`
    /// with `Retry-After` (which clients retry), not 500; the REKI rendering too.
    @Test func aRequestIs503WithRetryAfterWhenTheDatabaseDoesNotAnswer() async throws {
        let settings = TestServer.defaultSettings()
        defer { try? FileManager.default.removeItem(atPath: settings.dataDirectory) }
        let database = try await Database.openMigrated(settings: settings, logger: TestServer.quietLogger)
        let parts = ServerParts(
            settings: settings, database: database, hasher: PasswordHasher(cost: settings.bcryptCost),
            signer: try await TokenSigner(settings: settings, now: Date().timeIntervalSince1970), encryptionKeys: EncryptionKeys(current: String(repeating: "e", count: 32)), clock: .system,
            mail: MailQueue(database: database, encryptionKey: String(repeating: "e", count: 32)),
            consoleTemplates: try await ConsoleTemplates.bundled())
        let app = Application(router: try buildRouter(parts), logger: TestServer.quietLogger)
        try await app.test(.router) { client in
            let client = TestClient(client: client, settings: settings, mailbox: parts.mail)
            await database.close()
            let reply = try await client.post("/api/auth/login", ["email": "someone@acme.test", "password": "a password"])
            reply.expectFailure(.serviceUnavailable, "SERVICE_UNAVAILABLE", "The service is temporarily unavailable. Please try again shortly.")
            #expect(reply.headers[.retryAfter] == "5")
            let reki = try await client.post("/auth/login", ["email": "someone@acme.test", "password": "a password"])
            #expect(reki.status == .serviceUnavailable)
            #expect(reki.headers[.retryAfter] == "5")
        }
        await parts.hasher.shutdown()
    }
}
