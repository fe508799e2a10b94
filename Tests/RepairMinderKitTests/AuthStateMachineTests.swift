import Foundation
import RepairMinderKit
import RepairMinderModels
import RepairMinderServer
import Testing

/// `StaffAuth` and `CustomerAuth` through every flow, against the real server.
@MainActor
@Suite struct AuthStateMachineTests {
    @Test func staffPasswordAndEmailedCode() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let store = InMemoryCredentialStore()
            let auth = await StaffAuth(api: server.client(url, store: store))
            try await auth.login(email: "  admin@acme.test ", password: DemoFixtures.adminPassword)
            guard case .awaitingSecondFactor(let challenge) = await auth.state else { Issue.record("no challenge"); return }
            #expect(challenge.twoFactorMethods == [.email])
            try await auth.requestEmailCode()
            try await auth.verifySecondFactor(code: try server.latestCode(to: DemoFixtures.adminEmail))
            guard case .signedIn(let me) = await auth.state else { Issue.record("not signed in"); return }
            #expect(me.user.email == DemoFixtures.adminEmail)
            #expect(me.hasPassword)
            #expect(try store.role() == .staff)

            // A fresh StaffAuth on the same store restores the session.
            let restored = await StaffAuth(api: server.client(url, store: store))
            await restored.restoreSession()
            #expect(await restored.state == .signedIn(me))

            await auth.logout()
            #expect(await auth.state == .signedOut)
            #expect(try store.staffCredentials() == nil)
        }
    }

    @Test func staffMagicLinkAndWrongCode() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let auth = await StaffAuth(api: server.client(url))
            try await auth.requestMagicLink(email: "nopassword@acme.test")
            #expect(await auth.state == .awaitingMagicCode(email: "nopassword@acme.test"))
            await #expect(throws: APIError.unauthorized(message: "Invalid or expired code", code: "INVALID_CODE")) {
                try await auth.verifyMagicCode("000000" == (try server.latestCode(to: "nopassword@acme.test")) ? "111111" : "000000")
            }
            try await auth.verifyMagicCode(try server.latestCode(to: "nopassword@acme.test"))
            guard case .signedIn(let me) = await auth.state else { Issue.record("not signed in"); return }
            #expect(me.hasPassword == false)
        }
    }

    @Test func logoutWithTheServerDownStillClearsLocalState() async throws {
        let server = try await LiveServer()
        let store = InMemoryCredentialStore()
        let box = URLBox()
        try await server.run { url in
            box.url = url
            let auth = await StaffAuth(api: server.client(url, store: store))
            try await auth.login(email: DemoFixtures.adminEmail, password: DemoFixtures.adminPassword)
            try await auth.requestEmailCode()
            try await auth.verifySecondFactor(code: try server.latestCode(to: DemoFixtures.adminEmail))
        }
        // The server has stopped.
        let url = try #require(box.url)
        let offline = await StaffAuth(api: server.client(url, store: store))
        await offline.restoreSession()
        #expect(await offline.state == .offline)
        #expect(try store.staffCredentials() != nil)
        await offline.logout()
        #expect(await offline.state == .signedOut)
        #expect(try store.staffCredentials() == nil)
    }

    @Test func customerSingleAndMultiCompanyAndCancel() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let auth = await CustomerAuth(api: server.client(url))
            try await auth.requestCode(email: "jane@example.test")
            try await auth.verify(code: try server.latestCode(to: "jane@example.test"))
            guard case .signedIn(let jane) = await auth.state else { Issue.record("not signed in"); return }
            #expect(jane.company.name == "Acme Repairs")
            await auth.logout()

            try await auth.requestCode(email: "multi@example.test")
            let code = try server.latestCode(to: "multi@example.test")
            try await auth.verify(code: code)
            guard case .selectingCompany(let selection) = await auth.state else { Issue.record("no selection"); return }
            #expect(selection.companies.map(\.name) == ["Acme Repairs", "Beta Tech"])
            await auth.cancel()
            #expect(await auth.state == .signedOut)

            // The code is still good after cancelling: choose Beta Tech this time.
            try await auth.requestCode(email: "multi@example.test")
            try await auth.verify(code: try server.latestCode(to: "multi@example.test"))
            guard case .selectingCompany(let again) = await auth.state else { Issue.record("no selection"); return }
            let beta = try #require(again.companies.first { $0.name == "Beta Tech" })
            try await auth.selectCompany(id: beta.id)
            guard case .signedIn(let multi) = await auth.state else { Issue.record("not signed in"); return }
            #expect(multi.company.id == beta.id)
            #expect(try await auth.api.store.role() == .customer)
        }
    }
}

final class URLBox: @unchecked Sendable {
    var url: URL?
}
