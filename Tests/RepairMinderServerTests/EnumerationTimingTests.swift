import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import RepairMinderServer

/// Registration and password reset answer an address that has an account and one that has not
/// alike, in body and status (tested with each endpoint) and in time: within the bounds the
/// login test uses for unknown emails (docs/API.md §9).
@Suite(.serialized) struct EnumerationTimingTests {
    /// Seconds `request` takes.
    static func time(_ request: () async throws -> Void) async throws -> Double {
        let start = ContinuousClock.now
        try await request()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// The median times of `first` and `second`, called in turn five times after a warm-up:
    /// alternating, so a machine busy with other suites weighs on both alike.
    static func medians(_ first: () async throws -> Void, _ second: () async throws -> Void) async throws -> (Double, Double) {
        try await first()
        try await second()
        var a: [Double] = [], b: [Double] = []
        for _ in 0..<5 {
            a.append(try await time(first))
            b.append(try await time(second))
        }
        return (a.sorted()[2], b.sorted()[2])
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
            let (taken, free) = try await Self.medians({ try await call(DemoFixtures.adminEmail) }, { try await call("nobody@acme.test") })
            #expect(free > taken * 0.25, "free \(free)s vs taken \(taken)s")
            #expect(free < taken * 4.0, "free \(free)s vs taken \(taken)s")
        }
    }
}
