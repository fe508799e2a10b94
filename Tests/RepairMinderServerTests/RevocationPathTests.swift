import Foundation
import Testing

@testable import RepairMinderServer

/// A session ended on this instance is refused at once, though the token was just used (and so
/// is in `StaffCallerCache`, which would otherwise answer for two seconds): every revocation
/// path clears the cache after it commits. The two-instance form is in `TwoInstanceTests`.
@Suite struct RevocationPathTests {
    @Test(arguments: RevocationPath.allCases)
    func anEndedSessionIsRefusedAtOnce(_ path: RevocationPath) async throws {
        let server = try await TestServer()
        try await server.run { client in
            let ended = try await client.signIn(), other = try await client.signIn()
            #expect(try await client.send(.get, "/api/auth/me", bearer: ended.string("token")).status == .ok)
            try await path.end(ended, other: other, client: client, server: server)
            try await client.send(.get, "/api/auth/me", bearer: ended.string("token")).expectFailure(.unauthorized, "UNAUTHORIZED")
        }
    }
}
