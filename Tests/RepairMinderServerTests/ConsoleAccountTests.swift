import ExtrasBase64
import Foundation
import Hummingbird
import HummingbirdTesting
import RepairMinderModels
import TestSupport
import Testing

@testable import RepairMinderServer

/// The console's My account (docs/API.md §15.6): the password, the authenticator app (its QR
/// code decodes to the API's `otpauth://` URI), passkeys added and used to sign in through the
/// console's endpoints (as its script does, with the software authenticator), and a session the
/// shop's policy restricts enrolling.
@Suite struct ConsoleAccountTests {
    // MARK: The password

    // MARK: Deletion and export (§9.5)

    @Test func aMemberDownloadsTheirDataAndDeletesTheirAccount() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let browser = try await ConsoleBrowser.signedIn(client, DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
            let export = try await browser.get("/console/account/export")
            #expect(export.status == .ok)
            #expect(export.headers[.contentDisposition] == #"attachment; filename="repairminder-account.json""#)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(export.html.utf8)) as? [String: Any])
            #expect((json["user"] as? [String: Any])?["email"] as? String == DemoFixtures.engineerEmail)

            let unconfirmed = try await browser.post("/console/account/delete", ["password": DemoFixtures.engineerPassword, "confirm": "delete"])
            #expect(unconfirmed.status == .badRequest)
            #expect(unconfirmed.problem == "Type DELETE to confirm that the account is to be deleted.")
            let wrong = try await browser.post("/console/account/delete", ["password": "not my password", "confirm": "DELETE"])
            #expect(wrong.status == .unauthorized)
            #expect(wrong.problem == "Invalid credentials")
            let forged = try await browser.post(
                "/console/account/delete", ["password": DemoFixtures.engineerPassword, "confirm": "DELETE", "csrf": "forged"])
            #expect(forged.status == .forbidden)
            #expect(try await browser.get("/console/account").status == .ok)

            let deleted = try await browser.post("/console/account/delete", ["password": DemoFixtures.engineerPassword, "confirm": "DELETE"])
            #expect(deleted.status == .seeOther)
            #expect(deleted.location == "/console/sign-in?notice=account-deleted")
            #expect(try await browser.get("/console/sign-in?notice=account-deleted").notice == "Your account has been deleted, and every device signed out.")
            try await client.post("/api/auth/login", ["email": DemoFixtures.engineerEmail, "password": DemoFixtures.engineerPassword])
                .expectFailure(.unauthorized, "INVALID_CREDENTIALS")
        }
    }

    /// The shop's last active admin is told why, and nothing is deleted.
    @Test func theLastAdminIsToldToHandOver() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let browser = try await ConsoleBrowser.signedIn(client)
            let refused = try await browser.post(
                "/console/account/delete", ["password": DemoFixtures.adminPassword, "confirm": "DELETE", "closeShop": "true"])
            #expect(refused.status == .conflict)
            #expect(refused.problem == "You are the shop's last active admin. Make another member an admin before you delete your account.")
            #expect(try await browser.get("/console/account").status == .ok)
        }
    }

    @Test func aWrongCurrentPasswordChangesNothing() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let browser = try await ConsoleBrowser.signedIn(client)
            let account = try await browser.get("/console/account")
            #expect(account.status == .ok)
            #expect(account.html.contains(#"<script src="/console/assets/console.js" defer></script>"#))
            #expect(account.html.contains("Change the password"))

            let new = "violet kettle 1987 drum"
            let wrong = try await browser.post(
                "/console/account/password", ["currentPassword": "not my password", "newPassword": new, "confirmPassword": new])
            #expect(wrong.status == .unauthorized)
            #expect(wrong.problem == "Invalid credentials")
            let differ = try await browser.post(
                "/console/account/password",
                ["currentPassword": DemoFixtures.adminPassword, "newPassword": new, "confirmPassword": new + "!"])
            #expect(differ.status == .badRequest)
            #expect(differ.problem == "The two new passwords do not match. Type the same password in both fields.")
            let weak = try await browser.post(
                "/console/account/password",
                ["currentPassword": DemoFixtures.adminPassword, "newPassword": "password1", "confirmPassword": "password1"])
            #expect(weak.status == .badRequest)
            #expect(weak.problem == "This password is too common. Choose another.")
            // Nothing changed: the old password still signs in.
            #expect(try await client.post("/api/auth/login", ["email": DemoFixtures.adminEmail, "password": DemoFixtures.adminPassword]).status == .ok)

            // Without the form's CSRF token: refused, nothing done.
            let forged = try await browser.post(
                "/console/account/password",
                ["currentPassword": DemoFixtures.adminPassword, "newPassword": new, "confirmPassword": new, "csrf": "forged"])
            #expect(forged.status == .forbidden)

            let changed = try await browser.post(
                "/console/account/password", ["currentPassword": DemoFixtures.adminPassword, "newPassword": new, "confirmPassword": new])
            #expect(changed.status == .seeOther)
            #expect(changed.location == "/console/account?notice=password-changed")
            let after = try await browser.get(try #require(changed.location))
            #expect(after.notice == "Password changed. Your other devices are signed out.")
            #expect(after.html.contains("Password changed</td>"), "the activity table lists it")
            #expect(try await client.post("/api/auth/login", ["email": DemoFixtures.adminEmail, "password": new]).status == .ok)
            #expect(try await client.post("/api/auth/login", ["email": DemoFixtures.adminEmail, "password": DemoFixtures.adminPassword]).status == .unauthorized)
        }
    }

    // MARK: The authenticator app

    @Test func anAuthenticatorAppIsSetUpFromItsQRCodeAndTurnedOff() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let browser = try await ConsoleBrowser.signedIn(client)
            #expect(try await browser.get("/console/account").html.contains(#"id="set-up-app""#))
            let setup = try await browser.post("/console/account/authenticator/setup", [:])
            #expect(setup.status == .ok)
            let secret = try #require(setup.hidden("secret"))
            let shown = try #require(setup.html.firstMatch(of: /id="totp-secret" class="secret">([A-Z2-7 ]+)</).map { String($0.1) })
            #expect(shown.replacingOccurrences(of: " ", with: "") == secret)
            // The picture is the QR code of the API's URI, and a reader decodes it to that URI.
            let uri = AuthenticatorApp.otpauthURL(secret: secret, email: DemoFixtures.adminEmail)
            let image = try #require(setup.html.firstMatch(of: /id="totp-qr" class="qr" src="([^"]+)"/).map { String($0.1) })
            #expect(image == (try QRCode(text: uri).svgDataURL()))
            if let decoded = try QRCodeTests.decodeWithZbar(QRCodeTests.modules(ofSVGDataURL: image)) {
                #expect(decoded == uri)
            }

            // A wrong code: the same secret again, with the API's message.
            let bytes = try Base32.decode(string: secret)
            let wrongCode = TOTPTests.code(bytes, server.clock.now + 300)
            let wrong = try await browser.post("/console/account/authenticator/confirm", ["code": wrongCode, "secret": secret])
            #expect(wrong.status == .badRequest)
            #expect(wrong.problem == "Invalid verification code")
            #expect(wrong.hidden("secret") == secret)
            #expect(wrong.html.contains(image))

            let on = try await browser.post(
                "/console/account/authenticator/confirm", ["code": TOTPTests.code(bytes, server.clock.now), "secret": secret])
            #expect(on.status == .ok)
            let codes = on.html.matches(of: /<li><code>([A-Z0-9]{8})<\/code><\/li>/).map { String($0.1) }
            #expect(codes.count == 10)
            let account = try await browser.get("/console/account")
            #expect(account.html.contains("On. Recovery codes left: 10."))
            #expect(account.html.contains("Authenticator app set up</td>"))

            // Turning it off asks first, then takes a recovery code.
            let ask = try await browser.get("/console/account/authenticator/disable")
            #expect(ask.status == .ok)
            #expect(ask.heading == "Turn off the authenticator app?")
            let refused = try await browser.post("/console/account/authenticator/disable", ["code": "ZZZZZZZZ"])
            #expect(refused.status == .badRequest)
            #expect(refused.problem == "Invalid verification code")
            let off = try await browser.post("/console/account/authenticator/disable", ["code": codes[0]])
            #expect(off.location == "/console/account?notice=app-off")
            #expect(try await browser.get("/console/account").html.contains(#"id="set-up-app""#))
        }
    }

    // MARK: Passkeys

    @Test func aPasskeyIsAddedSignsInToTheConsoleAndIsRemoved() async throws {
        let server = try await PasskeyTests.server()
        try await server.run { client in
            let browser = try await ConsoleBrowser.signedIn(client)
            let authenticator = SoftwarePasskeyAuthenticator(origin: PasskeyTests.site)
            // Without the form's CSRF token the options are refused.
            #expect(try await browser.post("/console/account/passkeys/options", ["csrf": "forged"]).status == .forbidden)
            let added = try await browser.addPasskey(authenticator, name: "Work laptop")
            #expect(added.status == .seeOther)
            #expect(added.location == "/console/account?notice=passkey-added")
            let account = try await browser.get(try #require(added.location))
            #expect(account.notice == "Passkey added.")
            #expect(account.html.contains("<td>Work laptop</td>"))

            // An answer that is not the authenticator's: the API's message, nothing kept.
            let started = try await browser.passkeyOptions()
            let unreadable = try await browser.post(
                "/console/account/passkeys", ["challengeId": started.challengeId, "name": "Broken", "credential": "{not json"])
            #expect(unreadable.status == .badRequest)
            #expect(unreadable.problem == "Passkey not accepted: the browser's answer could not be read")
            #expect(try await PasskeyTests.passkeyCount(server) == 1)

            // Signing in: the code page offers the passkey (the admin's only factor now), with step 1's options.
            let visitor = ConsoleBrowser(client)
            let codePage = try await visitor.startSignIn()
            #expect(!codePage.html.contains(#"id="code""#), "a passkey-only user types no code")
            #expect(codePage.html.contains(#"<button type="submit" id="use-passkey">Use a passkey</button>"#))
            let form = try #require(codePage.form("passkey-sign-in"))
            let options = try JSONDecoder().decode(
                PublicKeyCredentialRequestOptionsJSON.self, from: Data(try #require(form["passkeyOptions"]).utf8))
            // A broken signature: refused with the API's message, and the button is there again.
            authenticator.tampering.breakSignature = true
            var fields = form
            fields["passkey"] = try PasskeyTests.json(try await authenticator.signIn(options))
            let refused = try await visitor.post("/console/sign-in/code", fields, csrf: false)
            #expect(refused.status == .unauthorized)
            #expect(refused.problem == "Passkey not recognised")
            let shownAgain = try #require(refused.form("passkey-sign-in")?["passkeyOptions"])
            #expect(try JSONDecoder().decode(PublicKeyCredentialRequestOptionsJSON.self, from: Data(shownAgain.utf8)) == options)
            fields["passkey"] = try PasskeyTests.json(try await authenticator.signIn(options))
            let signedIn = try await visitor.post("/console/sign-in/code", fields, csrf: false)
            #expect(signedIn.status == .seeOther)
            #expect(signedIn.location == "/console/")
            #expect(visitor.cookies[ConsoleCookies.session] != nil)
            #expect(try await visitor.get("/console/account").status == .ok)

            // Removing asks first.
            let id = try #require(account.html.firstMatch(of: /\/console\/account\/passkeys\/([^\/"]+)\/remove/).map { String($0.1) })
            let ask = try await visitor.get("/console/account/passkeys/\(id)/remove")
            #expect(ask.heading == "Remove the passkey “Work laptop”?")
            let removed = try await visitor.post("/console/account/passkeys/\(id)/remove", [:])
            #expect(removed.location == "/console/account?notice=passkey-removed")
            #expect(try await PasskeyTests.passkeyCount(server) == 0)
            #expect(try await visitor.get("/console/account/passkeys/\(id)/remove").status == .notFound)
        }
    }

    /// A session the policy restricts lands on My account, which offers only enrolment; enrolling a
    /// passkey there frees it.
    @Test func aRestrictedSessionEnrolsFromMyAccount() async throws {
        let server = try await PasskeyTests.server()
        try await server.run { client in
            let (adminToken, _) = try await SecurityPolicyTests.adminWithPasskey(client)
            let (email, _) = try await SecurityPolicyTests.member(client, adminToken, "late")
            let policy = ["requiredFactor": "app_or_passkey", "enrolmentGraceDays": 0] as [String: Any]
            #expect(try await SecurityPolicyTests.put(client, adminToken, policy).status == .ok)

            let browser = ConsoleBrowser(client)
            let landed = try await browser.signIn(email, SecurityPolicyTests.password, follow: false).location
            #expect(landed == "/console/account?notice=enrol")
            let account = try await browser.get("/console/account?notice=enrol")
            #expect(account.status == .ok)
            #expect(account.notice == ConsoleNotice.text("enrol"))
            #expect(account.html.contains(#"id="set-up-app""#))
            #expect(account.html.contains(#"id="add-passkey""#))
            #expect(!account.html.contains("Signed-in devices"), "the API does not list them to a restricted session")
            // The app's setup is open to it too.
            #expect(try await browser.post("/console/account/authenticator/setup", [:]).status == .ok)

            let added = try await browser.addPasskey(SoftwarePasskeyAuthenticator(origin: PasskeyTests.site), name: "Phone")
            #expect(added.location == "/console/account?notice=passkey-added")
            let freed = try await browser.get("/console/account")
            #expect(freed.html.contains("Signed-in devices"))
            #expect(freed.html.contains("<td>Phone</td>"))
        }
    }

    @Test func theScriptIsServedAndLoadsNothingElse() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let script = try await ConsoleBrowser(client).get("/console/assets/console.js")
            #expect(script.status == .ok)
            #expect(script.headers[.contentType] == "text/javascript; charset=utf-8")
            for needed in ["navigator.credentials.create", "navigator.credentials.get", "passkey-error", "passkey-form", "passkey-sign-in"] {
                #expect(script.html.contains(needed), "\(needed)")
            }
            #expect(!script.html.contains("://"), "no request leaves the server")
        }
    }

    @Test func developmentPasskeysBelongToLocalhost() throws {
        var settings = ServerSettings()
        settings.port = 8231
        #expect(settings.serverURL == "http://127.0.0.1:8231")
        #expect(settings.relyingPartyID == "localhost")
        #expect(settings.relyingPartyOrigins == ["http://localhost:8231"])
        try settings.validateWebAuthn()
        settings.host = "0.0.0.0"
        #expect(settings.relyingPartyID == "localhost")
        // Anything given is used as given.
        settings.webauthnRPID = "dev.example"
        settings.webauthnOrigins = ["http://dev.example:8231"]
        #expect(settings.relyingPartyID == "dev.example")
        #expect(settings.relyingPartyOrigins == ["http://dev.example:8231"])
        settings.webauthnRPID = nil
        settings.webauthnOrigins = []
        settings.publicURL = "https://repairminder.example.com"
        #expect(settings.relyingPartyID == "repairminder.example.com")
        #expect(settings.relyingPartyOrigins == ["https://repairminder.example.com"])
    }
}

/// Passkeys on My account, as the console's script adds them.
extension ConsoleBrowser {
    /// The registration options the account page's script asks for.
    fileprivate func passkeyOptions() async throws -> PasskeyRegistrationOptions {
        let reply = try await post("/console/account/passkeys/options")
        #expect(reply.status == .ok)
        #expect(reply.headers[.contentType] == "application/json; charset=utf-8")
        return try JSONDecoder().decode(PasskeyRegistrationOptions.self, from: Data(reply.html.utf8))
    }

    /// The options, the authenticator's new passkey, and the form with its answer.
    fileprivate func addPasskey(_ authenticator: SoftwarePasskeyAuthenticator, name: String) async throws -> Page {
        _ = try await get("/console/account")
        let started = try await passkeyOptions()
        let credential = try await authenticator.createPasskey(started.publicKey)
        return try await post(
            "/console/account/passkeys", ["challengeId": started.challengeId, "name": name, "credential": try PasskeyTests.json(credential)])
    }
}
