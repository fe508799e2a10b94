import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import RepairMinderServer

/// Issue 50, item 7: liveness (`/livez`, the process serves) apart from readiness (`/readyz`,
/// send it requests), which turns 503 `draining` once a shutdown began, as `/api/health` does.
/// The database's side of readiness is in DatabaseOutageTests.
@Suite struct ProbeTests {
    @Test func livenessNeverAsksTheDatabaseAndReadinessTurnsOffWhileDraining() async throws {
        let server = try await TestServer()
        let draining = Draining()
        try await server.harness.removingAfterwards {
            let app = try await buildApplication(
                settings: server.settings, clock: server.clock.serverClock, mailTransport: nil, logger: ServerHarness.quietLogger,
                draining: draining, mountingAlso: { _ in })
            try await server.harness.run(application: app) { client in
                let live = try await client.execute(uri: "/livez", method: .get)
                #expect(live.status == .ok)
                let liveData = try Self.data(live)
                #expect(liveData["status"] as? String == "ok" && liveData["version"] as? String == repairMinderVersion)
                #expect(liveData["database"] == nil, "liveness does not ask the database")
                for path in ["/readyz", "/api/health"] {
                    let ready = try await client.execute(uri: path, method: .get)
                    #expect(ready.status == .ok, "\(path)")
                    #expect(try Self.data(ready)["database"] as? String == "ok", "\(path)")
                }

                draining.begin()
                for path in ["/readyz", "/api/health"] {
                    let refused = try await client.execute(uri: path, method: .get)
                    #expect(refused.status == .serviceUnavailable, "\(path)")
                    #expect(refused.headers[.retryAfter] == "5", "\(path)")
                    let data = try Self.data(refused)
                    #expect(data["status"] as? String == "draining" && data["database"] as? String == "ok", "\(path)")
                }
                #expect(try await client.execute(uri: "/livez", method: .get).status == .ok)
            }
        }
    }

    /// The `data` of an enveloped answer.
    static func data(_ response: TestResponse) throws -> [String: Any] {
        let json = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
        return try #require(json?["data"] as? [String: Any])
    }
}
