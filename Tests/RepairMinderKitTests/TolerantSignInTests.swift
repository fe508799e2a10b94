import Foundation
import RepairMinderKit
import RepairMinderModels
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 28, "tolerant decoding", end to end: a server that answers with a role, a company
/// status and a second factor this SDK version has never seen does not lock anyone out, and
/// the app stays fail-closed about the company: a status it does not know is a quarantine.
@MainActor @Suite struct TolerantSignInTests {
    static let base = URL(string: "https://rm.example")!

    nonisolated static func envelope(_ data: String) -> String { #"{"success": true, "data": \#(data)}"# }

    nonisolated static let user = #"{"id": "u1", "email": "ada@acme.test", "first_name": "Ada", "company_id": "c1", "role": "regional_manager", "is_active": 1}"#

    nonisolated static func company(_ status: String) -> String { #"{"id": "c1", "name": "Acme", "status": "\#(status)", "logo_url": null}"# }

    /// Answers login, 2FA verify and `/me` as a newer server would.
    nonisolated static func server(companyStatus: String) -> ScriptedTransport {
        ScriptedTransport { request in
            switch request.url?.path {
            case "/api/auth/login":
                let challenge = """
                    {"requiresTwoFactor": true, "userId": "u1", "email": "ada@acme.test",
                     "user": {"id": "u1", "email": "ada@acme.test", "firstName": "Ada", "lastName": null, "companyId": "c1"},
                     "methods": ["email", "hardware_token"], "challengeToken": "ct"}
                    """
                return (200, envelope(challenge), [:])
            case "/api/auth/2fa/verify":
                let tokens = """
                    {"token": "a.b.c", "refreshToken": "r1", "expiresIn": 900, "user": \(user), "company": \(company(companyStatus))}
                    """
                return (200, envelope(tokens), [:])
            case "/api/auth/me":
                return (200, envelope(#"{"user": \#(user), "company": \#(company(companyStatus)), "hasPassword": true}"#), [:])
            default:
                return (404, #"{"success": false, "error": "Not found", "code": "NOT_FOUND"}"#, [:])
            }
        }
    }

    /// Password, emailed code, `/me`: every answer carries an unknown role and company status,
    /// and the sign-in completes with both kept as `.unknown`; the app shows the quarantine
    /// screen, since only `active` lets staff in.
    @Test func aSignInWithAnUnknownRoleAndCompanyStatusSucceedsAndIsQuarantined() async throws {
        let transport = Self.server(companyStatus: "under_review")
        let app = AppModel(api: APIClient(baseURL: Self.base, store: InMemoryCredentialStore(), transport: transport))
        app.roles.select(.staff)
        await app.launch()
        #expect(app.screen == .staffLogin)

        try await app.staff.login(email: "ada@acme.test", password: "correct horse battery")
        #expect(app.screen == .staffSecondFactor)
        // The factor this version cannot answer is kept but not offered; the emailed code is.
        let twoFactor = TwoFactorViewModel(auth: app.staff)
        #expect(twoFactor.methods == [.email, .unknown("hardware_token")])
        #expect(twoFactor.offersEmailedCode && !twoFactor.offersAuthenticator && !twoFactor.offersPasskey)

        try await app.staff.verifySecondFactor(code: "482913")
        guard case .signedIn(let me) = app.staff.state else {
            Issue.record("not signed in: \(app.staff.state)")
            return
        }
        #expect(me.user.role == .unknown("regional_manager"))
        #expect(me.company.status == .unknown("under_review"))
        #expect(me.hasPassword)
        #expect(app.screen == .staffQuarantined)
        #expect(transport.requests.map { $0.url?.path } == ["/api/auth/login", "/api/auth/2fa/verify", "/api/auth/me"])
    }

    /// The role does not gate the app (the server decides what each role may do): an unknown
    /// role in an active shop restores its session at launch and reaches the main screen.
    @Test func anUnknownRoleInAnActiveShopRestoresToTheMainScreen() async throws {
        let store = InMemoryCredentialStore()
        try store.saveStaff(
            StaffCredentials(accessToken: "a.b.c", refreshToken: "r1", accessTokenExpiresAt: Date().addingTimeInterval(3600)))
        try store.saveRole(.staff)
        let app = AppModel(api: APIClient(baseURL: Self.base, store: store, transport: Self.server(companyStatus: "active")))
        await app.launch()
        guard case .signedIn(let me) = app.staff.state else {
            Issue.record("not signed in: \(app.staff.state)")
            return
        }
        #expect(me.user.role == .unknown("regional_manager") && me.company.status == .active)
        #expect(app.screen == .staffMain)
    }

    /// Each known non-active status and an unknown one quarantine; only `active` does not.
    @Test(arguments: ["pending_approval", "suspended", "closed_for_audit", "ACTIVE", ""])
    func everyStatusButActiveIsQuarantined(status: String) async throws {
        let store = InMemoryCredentialStore()
        try store.saveStaff(
            StaffCredentials(accessToken: "a.b.c", refreshToken: "r1", accessTokenExpiresAt: Date().addingTimeInterval(3600)))
        try store.saveRole(.staff)
        let app = AppModel(api: APIClient(baseURL: Self.base, store: store, transport: Self.server(companyStatus: status)))
        await app.launch()
        #expect(app.screen == .staffQuarantined)
    }
}
