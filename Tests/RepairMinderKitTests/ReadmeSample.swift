// The README's "Using the SDK in an app" sample, kept here so it is compiled (and run) on Linux.
// Keep the two in step: this file between the markers is what the README shows.
import Foundation
import RepairMinderKit
import RepairMinderModels
import Testing

// README sample begins
@MainActor
func signInAsStaff(server: URL, email: String, password: String, readCode: () async throws -> String) async throws -> StaffMeResponse {
    // One client per app: it keeps the credentials and refreshes the access token by itself.
    let api = APIClient(baseURL: server, store: InMemoryCredentialStore())  // KeychainCredentialStore() on iOS
    let auth = StaffAuth(api: api)
    try await auth.restoreSession()                   // signed in already? (launch)
    if case .signedIn(let me) = auth.state { return me }

    try await auth.login(email: email, password: password)   // → .awaitingSecondFactor
    try await auth.requestEmailCode()                          // emails a 6-digit code
    try await auth.verifySecondFactor(code: try await readCode())
    guard case .signedIn(let me) = auth.state else { throw SignInFlowError.noLoginInProgress }

    // Any route of the table, answered as its typed response; 401s, refresh and retries are
    // handled inside.
    let preferences = try await api.send(Routes.push.preferences)
    print("Signed in as \(me.user.email); push enabled: \(preferences.enabled)")
    return me
}

/// The session state drives navigation: each listener gets the current state first, then every
/// change, a session the server ended included (with a reason to show once: `state.notice`).
@MainActor
func followSession(of api: APIClient, show: @MainActor (AuthState) -> Void) async {
    for await state in api.authStates() {
        show(state)  // .signedIn(.staff) → the staff tabs; .signedOut → the sign-in screen
    }
}
// README sample ends

@Suite struct ReadmeSampleTests {
    @Test func theReadmeSampleSignsIn() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let me = try await signInAsStaff(server: url, email: "admin@acme.test", password: "correct horse battery") {
                try await server.latestCode(to: "admin@acme.test")
            }
            #expect(me.user.email == "admin@acme.test")
        }
    }

    @Test func theReadmeSampleFollowsTheSession() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.signInAndOutWhileFollowing(server: server, url: url) }
    }

    @MainActor
    static func signInAndOutWhileFollowing(server: LiveServer, url: URL) async throws {
        let api = server.client(url)
        let seen = StateLog()
        let following = Task { @MainActor in await followSession(of: api) { seen.append($0) } }
        let auth = StaffAuth(api: api)
        try await auth.login(email: "admin@acme.test", password: "correct horse battery")
        try await auth.requestEmailCode()
        try await auth.verifySecondFactor(code: try await server.latestCode(to: "admin@acme.test"))
        await auth.logout()
        try await seen.waitFor(count: 3)
        following.cancel()
        #expect(seen.states == [.signedOut(reason: nil), .signedIn(.staff), .signedOut(reason: .userInitiated)])
    }
}
