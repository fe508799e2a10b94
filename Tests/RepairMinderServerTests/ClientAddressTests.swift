import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import RepairMinderServer

/// The client IP of docs/API.md §7: the socket's peer; `X-Forwarded-For` only from `--trusted-proxies`.
@Suite struct ClientAddressTests {
    @Test func rangesParseAndMatchBothFamilies() throws {
        let v4 = try #require(IPAddressRange("10.0.0.0/8"))
        #expect(v4.contains("10.200.3.4"))
        #expect(!v4.contains("11.0.0.1"))
        #expect(v4.contains("::ffff:10.1.2.3"))
        let v6 = try #require(IPAddressRange("fd00::/8"))
        #expect(v6.contains("fd12:3456::1"))
        #expect(!v6.contains("fe80::1"))
        #expect(!v6.contains("10.0.0.1"))
        #expect(try #require(IPAddressRange("192.168.1.7")).contains("192.168.1.7"))
        #expect(!(try #require(IPAddressRange("192.168.1.7"))).contains("192.168.1.8"))
        for bad in ["", "10.0.0.0/33", "10.0.0/8", "fd00::/129", "not an address", "10.0.0.1/8/2", "10.0.0.1/x"] {
            #expect(IPAddressRange(bad) == nil, "\(bad)")
        }
    }

    @Test func theRightmostUntrustedHopIsTheClient() throws {
        let middleware = ClientAddressMiddleware(trustedProxies: [try #require(IPAddressRange("10.0.0.0/8"))])
        #expect(middleware.client(behind: "10.0.0.1", forwardedFor: ["203.0.113.9"]) == "203.0.113.9")
        // A client's own forged entries sit to the left of what the proxy appended.
        #expect(middleware.client(behind: "10.0.0.1", forwardedFor: ["1.2.3.4, 203.0.113.9, 10.0.0.2"]) == "203.0.113.9")
        #expect(middleware.client(behind: "10.0.0.1", forwardedFor: ["1.2.3.4", "203.0.113.9"]) == "203.0.113.9")
        #expect(middleware.client(behind: "10.0.0.1", forwardedFor: []) == "10.0.0.1")
        #expect(middleware.client(behind: "10.0.0.1", forwardedFor: ["garbage"]) == "10.0.0.1")
    }

    @Test func ipv6IsCountedPerSlash64() {
        #expect(ClientAddress.limitKey("2001:db8:1:2:aaaa::1") == ClientAddress.limitKey("2001:db8:1:2:bbbb::9"))
        #expect(ClientAddress.limitKey("2001:db8:1:2::1") != ClientAddress.limitKey("2001:db8:1:3::1"))
        #expect(ClientAddress.limitKey("2001:db8:1:2::1") == "2001:db8:1:2::/64")
        #expect(ClientAddress.limitKey("203.0.113.9") == "203.0.113.9")
    }

    /// Budgets keyed by an address anyone can send count per network: IPv4 /24, IPv6 /64.
    @Test func networksAreSlash24AndSlash64() {
        #expect(ClientAddress.networkKey("203.0.113.9") == "203.0.113.0/24")
        #expect(ClientAddress.networkKey("203.0.113.250") == "203.0.113.0/24")
        #expect(ClientAddress.networkKey("203.0.114.9") == "203.0.114.0/24")
        #expect(ClientAddress.networkKey("::ffff:203.0.113.9") == "203.0.113.0/24")
        #expect(ClientAddress.networkKey("2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64")
        #expect(ClientAddress.networkKey(nil) == "unknown")
        #expect(ClientAddress.networkKey("garbage") == "unknown")
    }

    /// Behind a trusted proxy (the test's own loopback connection), each forwarded client has
    /// its own per-IP budget; without `--trusted-proxies` the header is ignored and all share one.
    @Test(arguments: [true, false])
    func thePerIPLimitCountsTheForwardedClientOnlyFromATrustedProxy(trusted: Bool) async throws {
        let server = try await TestServer {
            $0.ipRateLimit = 2
            if trusted { $0.trustedProxies = ["127.0.0.1", "::1"] }
        }
        try await server.run(.live) { client in
            var statuses: [HTTPResponse.Status] = []
            for address in ["203.0.113.1", "203.0.113.1", "203.0.113.1", "203.0.113.2"] {
                let reply = try await client.send(
                    .post, "/api/auth/login", json: #"{"email":"nobody@acme.test","password":"x"}"#,
                    headers: [.xForwardedFor: address])
                statuses.append(reply.status)
            }
            #expect(statuses == [.unauthorized, .unauthorized, .tooManyRequests, trusted ? .unauthorized : .tooManyRequests])
        }
    }

    @Test func aBadTrustedProxyEntryIsRefusedAtStartup() {
        var settings = ServerSettings()
        settings.trustedProxies = ["10.0.0.0/8", "10.0.0.0/99"]
        #expect(throws: SettingsError.self) { try settings.validate() }
    }
}
