import Foundation
import RepairMinderKit
import RepairMinderModels
import RepairMinderServer
import TestSupport
import Testing

/// `StaffAuth`'s passkeys through a `PasskeyAuthenticator` (here the software one), against
/// the real server (docs/API.md §11): enrol, list, sign in alone, answer step 3, remove.
@MainActor
@Suite struct PasskeySDKTests {
    nonisolated static let site = "https://repairminder.test"

    @Test func enrolSignInAnswerStepThreeAndRemove() async throws {
        let server = try await LiveServer { $0.publicURL = Self.site }
        try await server.run { url in try await Self.enrolSignInAnswerStepThreeAndRemove(server, url) }
    }

    static func enrolSignInAnswerStepThreeAndRemove(_ server: LiveServer, _ url: URL) async throws {
        do {
            let authenticator = SoftwarePasskeyAuthenticator(origin: Self.site)
            let auth = StaffAuth(api: server.client(url), passkeyAuthenticator: authenticator)
            try await auth.login(email: DemoFixtures.adminEmail, password: DemoFixtures.adminPassword)
            try await auth.requestEmailCode()
            try await auth.verifySecondFactor(code: try await server.latestCode(to: DemoFixtures.adminEmail))

            let settings = PasskeysViewModel(auth: auth)
            #expect(settings.canAdd)
            settings.newName = "  Work laptop "
            await settings.add()
            #expect(settings.errorMessage == nil)
            #expect(settings.passkeys.map(\.name) == ["Work laptop"])
            #expect(settings.newName.isEmpty)
            await auth.logout()

            // A passkey alone signs in (usernameless).
            let login = StaffLoginViewModel(auth: auth)
            #expect(login.offersPasskey)
            await login.signInWithPasskey()
            guard case .signedIn(let me) = auth.state else { Issue.record("not signed in: \(login.errorMessage ?? "")"); return }
            #expect(me.user.email == DemoFixtures.adminEmail)
            await auth.logout()

            // With a password: step 1 asks for the passkey, step 2 sends nothing, the 2FA
            // screen offers the passkey and no emailed code.
            try await auth.login(email: DemoFixtures.adminEmail, password: DemoFixtures.adminPassword)
            guard case .awaitingSecondFactor(let challenge) = auth.state else { Issue.record("no challenge"); return }
            #expect(challenge.methods == [.passkey])
            #expect(!challenge.acceptsEmailedCode)
            let twoFactor = TwoFactorViewModel(auth: auth)
            #expect(twoFactor.offersPasskey)
            #expect(!twoFactor.offersEmailedCode)
            #expect(!twoFactor.offersAuthenticator)
            #expect(twoFactor.resendCooldown == 0)
            #expect(try await auth.requestEmailCode() == "Use your passkey to finish signing in")
            await twoFactor.usePasskey()
            guard case .signedIn = auth.state else { Issue.record("step 3 failed: \(twoFactor.errorMessage ?? "")"); return }

            // The magic link stands in for the password only: step 3 follows.
            await auth.logout()
            try await auth.requestMagicLink(email: DemoFixtures.adminEmail)
            try await auth.verifyMagicCode(try await server.latestCode(to: DemoFixtures.adminEmail))
            guard case .awaitingSecondFactor = auth.state else { Issue.record("the magic link signed in alone"); return }
            try await auth.verifySecondFactorWithPasskey()
            guard case .signedIn = auth.state else { Issue.record("not signed in"); return }

            // Removed: the passkey no longer signs in, and the emailed code works again.
            await settings.load()
            await settings.remove(try #require(settings.passkeys.first))
            #expect(settings.passkeys.isEmpty)
            await auth.logout()
            await login.signInWithPasskey()
            #expect(login.errorMessage == "Passkey not recognised")
            try await auth.login(email: DemoFixtures.adminEmail, password: DemoFixtures.adminPassword)
            guard case .awaitingSecondFactor(let plain) = auth.state else { Issue.record("no challenge"); return }
            #expect(plain.methods == [.email])
        }
    }

    @Test func withoutAnAuthenticatorPasskeysAreNotOffered() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.notOffered(server, url) }
    }

    static func notOffered(_ server: LiveServer, _ url: URL) async throws {
        let auth = StaffAuth(api: server.client(url))
        #expect(!StaffLoginViewModel(auth: auth).offersPasskey)
        #expect(!PasskeysViewModel(auth: auth).canAdd)
        await #expect(throws: PasskeyError.unavailable) { try await auth.signInWithPasskey() }
    }
}

/// The screens' words for each way a passkey can fail on the phone (issue 41): a device with no
/// passkey leaves the password form up, saying so; a cancel says nothing.
@MainActor
@Suite struct PasskeyErrorMessageTests {
    struct Refusing: PasskeyAuthenticator {
        let error: PasskeyError
        func createPasskey(_ options: PublicKeyCredentialCreationOptionsJSON) async throws -> RegistrationResponseJSON { throw error }
        func signIn(_ options: PublicKeyCredentialRequestOptionsJSON) async throws -> AuthenticationResponseJSON { throw error }
    }

    @Test func eachFailureHasItsOwnMessageAndNoPasskeyFallsBackToThePassword() async throws {
        let server = try await LiveServer()
        try await server.run { url in try await Self.messages(server, url) }
    }

    static func messages(_ server: LiveServer, _ url: URL) async throws {
        var messages: [String?] = []
        for error in [PasskeyError.noPasskeyOnDevice, .notInteractive, .alreadyRegistered, .failed("broke"), .cancelled] {
            let auth = StaffAuth(api: server.client(url), passkeyAuthenticator: Refusing(error: error))
            let screen = StaffLoginViewModel(auth: auth)
            screen.mode = .magicLink
            await screen.signInWithPasskey()
            messages.append(screen.errorMessage)
            #expect(screen.mode == (error == .noPasskeyOnDevice ? .password : .magicLink), "\(error)")
        }
        #expect(messages.last == .some(nil))
        #expect(Set(messages.compactMap { $0 }).count == 4)
        #expect(messages.first == "There is no passkey for Repair Minder on this device. Sign in with your email and password.")
    }
}
