import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import RepairMinderServer

/// `GET /metrics`: Prometheus' text format with what docs/API.md's operators need to watch.
@Suite struct MetricsTests {
    /// The samples of a Prometheus text exposition.
    struct Samples {
        struct Sample {
            let name: String
            let labels: [String: String]
            let value: Double
        }

        let all: [Sample]

        init(_ text: String) {
            all = text.split(separator: "\n").compactMap { line -> Sample? in
                guard !line.hasPrefix("#"), let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...])
                else { return nil }
                let series = line[..<space]
                guard let brace = series.firstIndex(of: "{") else { return Sample(name: String(series), labels: [:], value: value) }
                var labels: [String: String] = [:]
                for pair in series[series.index(after: brace)..<series.index(before: series.endIndex)].split(separator: ",") {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    if parts.count == 2 { labels[String(parts[0])] = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
                }
                return Sample(name: String(series[..<brace]), labels: labels, value: value)
            }
        }

        /// The sum of the samples named `name` whose labels include `labels`.
        func value(_ name: String, _ labels: [String: String] = [:]) -> Double {
            all.filter { sample in sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value } }.map(\.value).reduce(0, +)
        }
    }

    /// Metrics on the listener of their own, port 0 (the system picks one).
    static func listening(_ settings: inout ServerSettings) { settings.metricsAddress = "127.0.0.1:0" }

    /// `GET /metrics` on the metrics listener, over a real socket.
    static func scrape(_ client: TestClient) async throws -> Samples {
        let port = try await client.metricsPort.wait()
        return try await HummingbirdTesting.TestClient.withClient(host: "127.0.0.1", port: port) { http in
            let response = try await http.get("/metrics")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain") == true)
            return Samples(String(buffer: response.body ?? ByteBuffer()))
        }
    }

    @Test func signInsFailuresRefreshesAndRateLimitsAreCounted() async throws {
        let server = try await TestServer {
            Self.listening(&$0)
            $0.loginFailureLimit = 2
        }
        try await server.run { client in
            let signIn = try await client.signIn()
            let first = try #require(signIn.string("refreshToken"))
            let token = try #require(signIn.string("token"))
            #expect(try await client.post("/api/auth/refresh", ["refreshToken": first]).status == .ok)
            // The same token again within the grace window: a retry, not a new rotation.
            #expect(try await client.post("/api/auth/refresh", ["refreshToken": first]).status == .ok)
            // And after it: theft, the session is revoked.
            server.clock.advance(by: 11)
            try await client.post("/api/auth/refresh", ["refreshToken": first]).expectFailure(.unauthorized, "TOKEN_REUSE_DETECTED")
            for _ in 0..<3 {
                _ = try await client.post("/api/auth/login", ["email": DemoFixtures.engineerEmail, "password": "wrong"])
            }
            _ = try await client.send(.get, "/api/auth/me", bearer: token)
            _ = try await client.send(.get, "/api/no/such/route")

            let samples = try await Self.scrape(client)
            #expect(samples.value("repairminder_sign_ins_total", ["method": "password"]) == 1)
            #expect(samples.value("repairminder_sign_ins_total", ["method": "magic_link"]) == 0)
            #expect(samples.value("repairminder_refresh_rotations_total", ["outcome": "rotated"]) == 1)
            #expect(samples.value("repairminder_refresh_rotations_total", ["outcome": "retried"]) == 1)
            #expect(samples.value("repairminder_refresh_reuse_detected_total") == 1)
            #expect(samples.value("repairminder_sign_in_failures_total", ["route": "/api/auth/login", "code": "INVALID_CREDENTIALS"]) == 2)
            #expect(samples.value("repairminder_sign_in_failures_total", ["route": "/api/auth/refresh", "code": "TOKEN_REUSE_DETECTED"]) == 1)
            #expect(samples.value("repairminder_rate_limited_total", ["route": "/api/auth/login"]) == 1)
            // Requests by route pattern and final status, with their durations.
            #expect(samples.value("http_requests_total", ["method": "POST", "route": "/api/auth/login", "status": "200"]) == 1)
            #expect(samples.value("http_requests_total", ["method": "POST", "route": "/api/auth/login", "status": "401"]) == 2)
            #expect(samples.value("http_requests_total", ["method": "POST", "route": "/api/auth/login", "status": "429"]) == 1)
            #expect(samples.value("http_requests_total", ["method": "GET", "route": "/api/auth/me", "status": "401"]) == 1)
            // Hummingbird's label for a path no route matches.
            #expect(samples.value("http_requests_total", ["route": "NotFound", "status": "404"]) == 1)
            #expect(samples.value("http_request_duration_seconds_count", ["route": "/api/auth/refresh"]) == 3)
            #expect(samples.value("repairminder_db_pool_wait_seconds_count") > 10)
        }
    }

    @Test func routesAreLabelledByPatternNotByPath() async throws {
        let server = try await TestServer(configure: Self.listening)
        try await server.run { client in
            for id in ["one", "two", "three"] { _ = try await client.send(.get, "/api/branding/\(id)/logo") }
            let samples = try await Self.scrape(client)
            #expect(samples.value("http_requests_total", ["route": "/api/branding/{id}/logo", "status": "404"]) == 3)
            #expect(!samples.all.contains { $0.labels["route"]?.contains("one") == true })
        }
    }

    @Test func everySeriesHasHelpAndTheMailQueueDepthIsAGauge() async throws {
        let server = try await TestServer(configure: Self.listening)
        try await server.run { client in
            // Two code mails queued; the outbox worker may not have delivered them yet.
            for email in ["one@example.test", "two@example.test"] {
                #expect(try await client.post("/api/auth/magic-link/request", ["email": email]).status == .ok)
            }
            _ = try await client.signIn()
            let port = try await client.metricsPort.wait()
            let text = try await HummingbirdTesting.TestClient.withClient(host: "127.0.0.1", port: port) { http in
                String(buffer: try await http.get("/metrics").body ?? ByteBuffer())
            }
            let lines = text.split(separator: "\n")
            let types = lines.filter { $0.hasPrefix("# TYPE ") }.map { $0.split(separator: " ")[2] }
            let helped = Set(lines.filter { $0.hasPrefix("# HELP ") }.map { $0.split(separator: " ")[2] })
            #expect(types.count >= 5)
            for name in types { #expect(helped.contains(name), "\(name) has no # HELP line") }
            #expect(lines.contains("# TYPE repairminder_mail_queue_depth gauge"))
            let depth = Samples(text).value("repairminder_mail_queue_depth")
            let queued = try await MailQueue.entries(in: client.mailbox.database).filter { $0.finishedAt == nil }.count
            #expect(depth >= Double(queued) && depth <= 3, "depth \(depth)")
        }
    }

    /// Issue 50, item 7: an alert on "any increase" sees the first event, so each counter is
    /// there at 0 before anything happened, for every label it can take.
    @Test func everyCounterIsThereAtZeroFromTheStart() async throws {
        let server = try await TestServer(configure: Self.listening)
        try await server.run { client in
            let samples = try await Self.scrape(client)
            func zero(_ name: String, _ labels: [String: String] = [:]) {
                let matching = samples.all.filter { sample in sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value } }
                #expect(matching.count == 1 && matching.first?.value == 0, "\(name) \(labels): \(matching.map(\.value))")
            }
            zero("repairminder_refresh_reuse_detected_total")
            for outcome in ["rotated", "retried"] { zero("repairminder_refresh_rotations_total", ["outcome": outcome]) }
            for outcome in ["sent", "retried", "failed"] { zero("repairminder_mail_deliveries_total", ["outcome": outcome]) }
            for method in ["password", "magic_link", "customer_code", "registration", "passkey", "invitation"] {
                zero("repairminder_sign_ins_total", ["method": method])
            }
            zero("repairminder_rate_limited_total", ["route": "/api/auth/login"])
            zero("repairminder_sign_in_failures_total", ["route": "/api/auth/login", "code": "INVALID_CREDENTIALS"])
        }
    }

    @Test func theAPIPortDoesNotServeMetrics() async throws {
        // With the listener on, and without it (the default: no metrics at all).
        let configurations: [(inout ServerSettings) -> Void] = [Self.listening, { _ in }]
        for configure in configurations {
            let server = try await TestServer(configure: configure)
            try await server.run { client in
                try await client.send(.get, "/metrics").expectFailure(.notFound, "NOT_FOUND")
                try await client.send(.post, "/metrics").expectFailure(.notFound, "NOT_FOUND")
            }
        }
    }

    @Test func theMetricsListenerServesOnlyMetrics() async throws {
        let server = try await TestServer(configure: Self.listening)
        try await server.run { client in
            let port = try await client.metricsPort.wait()
            try await HummingbirdTesting.TestClient.withClient(host: "127.0.0.1", port: port) { http in
                let health = try await http.get("/api/health")
                #expect(health.status == .notFound)
                let login = try await http.post("/api/auth/login", body: ByteBuffer(string: "{}"))
                #expect(login.status == .notFound)
            }
        }
    }

    @Test func theMetricsAddressMustBeHostAndPortOtherThanTheAPIs() {
        for (address, valid) in [
            ("127.0.0.1:9090", true), ("[::1]:9090", true), ("metrics.internal:9100", true), ("0.0.0.0:0", true),
            ("9090", false), ("127.0.0.1", false), ("::1:9090", false), ("127.0.0.1:70000", false), (":9090", false),
            ("127.0.0.1:8080", false),
        ] {
            var settings = TestServer.defaultSettings()
            settings.metricsAddress = address
            #expect(((try? settings.validate()) != nil) == valid, "\(address)")
        }
    }
}
