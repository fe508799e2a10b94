import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `serve --log-format json`: every line is one JSON object; each request writes one access
/// line (method, route pattern, status, duration, request id) and never a body, a token or a
/// query value; every answer carries `X-Request-Id`, a trusted proxy's own when it sent a plain
/// one; the start-up summary and the shutdown line are there (issue 29, item 3).
@Suite struct RequestLogTests {
    static func get(_ url: String, headers: [String: String] = [:], body: [String: String]? = nil) async throws -> HTTPURLResponse {
        var request = URLRequest(url: try #require(URL(string: url)), timeoutInterval: 10)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
        }
        let (_, response) = try await URLSession.shared.data(for: request)
        return try #require(response as? HTTPURLResponse)
    }

    @Test func jsonAccessLogAndRequestIds() async throws {
        let dataDir = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let port = try freeLoopbackPort()
        let url = "http://127.0.0.1:\(port)"
        let server = Process(), output = Pipe()
        server.executableURL = CommandLineTests.binary
        server.arguments = [
            "serve", "--data-dir", dataDir, "--port", String(port), "--log-format", "json", "--trusted-proxies", "127.0.0.1/32",
        ]
        server.standardOutput = output
        server.standardError = output
        try server.run()
        defer { if server.isRunning { kill(server.processIdentifier, SIGKILL) } }
        var healthy: HTTPURLResponse?
        try await waitUntil("serve answering", timeout: .seconds(120), interval: .milliseconds(100)) {
            healthy = try? await Self.get(url + "/api/health")
            return healthy != nil
        }
        let health = try #require(healthy, "serve did not start")

        // Generated ids: 32 hex digits, one per request.
        let generated = try #require(health.value(forHTTPHeaderField: "X-Request-Id"))
        #expect(generated.count == 32 && generated.allSatisfy(\.isHexDigit))
        // Failures carry one too; a query value and a body's password are not logged.
        let secret = "query-secret-\(UUID().uuidString)", password = "body-password-\(UUID().uuidString)"
        let notFound = try await Self.get(url + "/api/sessions/x?token=\(secret)")
        let refused = try await Self.get(url + "/api/auth/login", body: ["email": "nobody@acme.test", "password": password])
        #expect(refused.statusCode == 401)
        let ids = [notFound, refused].compactMap { $0.value(forHTTPHeaderField: "X-Request-Id") }
        #expect(Set(ids + [generated]).count == 3)
        // The proxy on 127.0.0.1 is trusted here: its plain id is kept, a malformed one replaced.
        let kept = try await Self.get(url + "/api/health", headers: ["X-Request-Id": "edge-7f3a.01:x_y"])
        #expect(kept.value(forHTTPHeaderField: "X-Request-Id") == "edge-7f3a.01:x_y")
        let replaced = try await Self.get(url + "/api/health", headers: ["X-Request-Id": "bad id\" with spaces"])
        let replacement = try #require(replaced.value(forHTTPHeaderField: "X-Request-Id"))
        #expect(replacement.count == 32 && replacement.allSatisfy(\.isHexDigit))

        kill(server.processIdentifier, SIGTERM)
        server.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON: \(line)")
        }
        #expect(!text.contains(secret))
        #expect(!text.contains(password))
        let requests = lines.filter { $0["message"] as? String == "request" }
        // One line per request: the five made after start-up, each under its own id.
        let mine = Set(ids + [generated, "edge-7f3a.01:x_y", replacement])
        #expect(requests.filter { mine.contains($0["request_id"] as? String ?? "") }.count == 5)
        let byId = Dictionary(requests.compactMap { line in (line["request_id"] as? String).map { ($0, line) } }, uniquingKeysWith: { $1 })
        let login = try #require(byId[ids[1]])
        #expect(login["method"] as? String == "POST")
        #expect(login["route"] as? String == "/api/auth/login")
        // Issue 50, item 7: numbers are JSON numbers, for a collector to compare and sum.
        #expect(login["status"] as? Int == 401)
        #expect(login["duration_ms"] as? Double != nil && !(login["duration_ms"] is String))
        #expect(text.contains(#""status":401"#))
        #expect(byId[ids[0]]?["route"] as? String == "NotFound" || byId[ids[0]]?["route"] as? String == "/api/sessions/{id}")
        #expect(byId["edge-7f3a.01:x_y"] != nil)
        #expect(Set(["timestamp", "level", "message", "label", "source"]).isSubset(of: Set(lines[0].keys)))
        let messages = lines.compactMap { $0["message"] as? String }
        #expect(messages.contains { $0.hasPrefix("Repair Minder 0.1.0 starting on http://127.0.0.1:\(port), public URL") })
        #expect(messages.last == "Repair Minder stopped")
    }
}
