import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import RepairMinderServer

/// Registration and password reset answer an address that has an account and one that has not
/// alike, in body and status (tested with each endpoint) and in time: within the bounds the
/// login test uses for unknown emails (docs/API.md §9).
@Suite struct EnumerationTimingTests {
    /// The median time of three calls of `request` after a warm-up.
    static func median(_ request: () async throws -> Void) async throws -> Double {
        try await request()
        var times: [Double] = []
        for _ in 0..<3 {
            let start = ContinuousClock.now
            try await request()
            let elapsed = ContinuousClock.now - start
            times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        return times.sorted()[1]
    }

    @Test(arguments: ["/api/auth/register", "/api/auth/password/forgot"])
    func aTakenAddressTakesAboutAsLongAsAFreeOne(path: String) async throws {
        // Real bcrypt cost, the send limits counting (high enough not to refuse) and the default
        // floor under a send's time, so each path does what it does in production.
        let server = try await TestServer {
            $0.bcryptCost = 10
            $0.codeEmailsPerHour = 1000
            $0.codeRequestMinimumMilliseconds = ServerSettings().codeRequestMinimumMilliseconds
        }
        try await server.run { client in
            func call(_ email: String) async throws {
                let body = path.hasSuffix("register") ? RegistrationTests.body(email: email) : ["email": email]
                let reply = try await client.post(path, body)
                #expect(reply.status == (path.hasSuffix("register") ? .created : .ok))
            }
            let taken = try await Self.median { try await call(DemoFixtures.adminEmail) }
            let free = try await Self.median { try await call("nobody@acme.test") }
            #expect(free > taken * 0.25, "free \(free)s vs taken \(taken)s")
            #expect(free < taken * 4.0, "free \(free)s vs taken \(taken)s")
        }
    }
}
