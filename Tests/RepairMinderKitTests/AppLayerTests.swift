import Foundation
import RepairMinderKit
import RepairMinderModels
import RepairMinderServer
import TestSupport
import Testing

/// Deep links, tabs, config, push registration and the screens' view models.
@MainActor
@Suite struct AppLayerTests {
    @Test(arguments: [
        (["type": "order_created", "order_id": "o1"], DeepLink.order(orderId: "o1")),
        (["type": "order_status_changed", "order_id": "o1"], .order(orderId: "o1")),
        (["type": "order_collected", "order_id": "o1"], .order(orderId: "o1")),
        (["type": "payment_received", "order_id": 42], .order(orderId: "42")),
        (["type": "device_status_changed", "order_id": "o1", "device_id": "d1"], .device(orderId: "o1", deviceId: "d1")),
        (["type": "quote_approved", "order_id": "o1", "device_id": "d1"], .device(orderId: "o1", deviceId: "d1")),
        (["type": "quote_rejected", "order_id": "o1", "device_id": "d1"], .device(orderId: "o1", deviceId: "d1")),
        (["type": "device_assigned", "order_id": "o1", "device_id": "d1"], .device(orderId: "o1", deviceId: "d1")),
        (["type": "new_enquiry", "ticket_id": "t1"], .enquiry(ticketId: "t1")),
        (["type": "enquiry_reply", "ticket_id": "t1"], .enquiry(ticketId: "t1")),
    ] as [([String: any Sendable], DeepLink)])
    func deepLinksFromEveryPayloadType(payload: [String: any Sendable], expected: DeepLink) {
        #expect(DeepLink(payload: payload) == expected)
    }

    @Test func badPayloadsGiveNoDeepLink() {
        #expect(DeepLink(payload: ["type": "order_created"]) == nil)
        #expect(DeepLink(payload: ["type": "device_assigned", "order_id": "o"]) == nil)
        #expect(DeepLink(payload: ["type": "unknown", "order_id": "o"]) == nil)
        #expect(DeepLink(payload: ["order_id": "o"]) == nil)
        #expect(StaffTab.tab(for: .device(orderId: "o", deviceId: "d")) == .devices)
        #expect(StaffTab.allCases.map(\.title) == ["Dashboard", "Devices", "Orders", "Enquiries", "Settings"])
        #expect(CustomerTab.allCases.map(\.title) == ["Orders", "Settings"])
    }

    @Test func inputValidation() {
        #expect(FormValidation.isValidEmail("  a@b.co "))
        #expect(!FormValidation.isValidEmail("a@b"))
        #expect(!FormValidation.isValidEmail("a b@c.d"))
        #expect(FormValidation.digits("12-34 56 7") == "123456")
        #expect(FormValidation.recoveryCode("abcd-2345x") == "ABCD2345")
    }

    @Test func roleSelectionIsRemembered() {
        let store = InMemoryCredentialStore()
        let first = RoleSelectionViewModel(store: store)
        #expect(first.role == nil)
        first.select(.customer)
        #expect(RoleSelectionViewModel(store: store).role == .customer)
        first.clear()
        #expect(RoleSelectionViewModel(store: store).role == nil)
    }

    @Test func staffScreensEndToEnd() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let auth = await StaffAuth(api: server.client(url))
            let login = await StaffLoginViewModel(auth: auth)
            await MainActor.run {
                login.email = " admin@acme.test "
                login.password = "wrong"
            }
            #expect(await login.canSubmit)
            await login.submit()
            #expect(await login.errorMessage == "Invalid credentials")
            await MainActor.run { login.password = DemoFixtures.adminPassword }
            await login.submit()
            #expect(await login.errorMessage == nil)
            #expect(await login.password == "")
            // The emailed code was requested automatically; the 6th digit submits.
            let twoFactor = await TwoFactorViewModel(auth: auth)
            #expect(await twoFactor.offersAuthenticator == false)
            // The code was just emailed: "resend" waits out the server's 30 s spacing first.
            #expect(await twoFactor.resendCooldown == 30)
            let code = try await server.latestCode(to: DemoFixtures.adminEmail)
            await twoFactor.codeChanged(String(code.prefix(5)))
            #expect(await twoFactor.code.count == 5)
            await twoFactor.codeChanged(code)
            guard case .signedIn = await auth.state else { Issue.record("not signed in"); return }
            let settings = await SettingsViewModel(staff: auth)
            #expect(await settings.signedInAs == "Ada Admin (admin@acme.test)")
            await settings.signOut()
            #expect(await auth.state == .signedOut)
        }
    }

    /// One shop's app (or custom domain) passes its company: a customer of several shops signs
    /// in to that one without choosing (issue 28).
    @Test func aShopsOwnAppPassesItsCompany() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let auth = await CustomerAuth(api: server.client(url))
            let probe = await CustomerLoginViewModel(auth: auth)
            await MainActor.run { probe.email = "multi@example.test" }
            await probe.submit()
            let entry = await CustomerCodeViewModel(auth: auth)
            await entry.codeChanged(try await server.latestCode(to: "multi@example.test"))
            let selection = await CompanySelectionViewModel(auth: auth)
            let beta = try #require(await selection.companies.first { $0.name == "Beta Tech" })
            await MainActor.run { auth.cancel() }

            let login = await CustomerLoginViewModel(auth: auth, companyId: beta.id)
            await MainActor.run { login.email = "multi@example.test" }
            await login.submit()
            await entry.codeChanged(try await server.latestCode(to: "multi@example.test"))
            guard case .signedIn(let me) = await auth.state else { Issue.record("asked to choose a shop"); return }
            #expect(me.company.id == beta.id)
        }
    }

    @Test func customerScreensWithCompanySelection() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let auth = await CustomerAuth(api: server.client(url))
            let login = await CustomerLoginViewModel(auth: auth)
            await MainActor.run { login.email = "multi@example.test" }
            await login.submit()
            let entry = await CustomerCodeViewModel(auth: auth)
            await entry.codeChanged(try await server.latestCode(to: "multi@example.test"))
            let selection = await CompanySelectionViewModel(auth: auth)
            let companies = await selection.companies
            #expect(companies.map(\.name) == ["Acme Repairs", "Beta Tech"])
            await selection.select(companies[0])
            guard case .signedIn(let me) = await auth.state else { Issue.record("not signed in"); return }
            #expect(me.company.name == "Acme Repairs")
            // Push registration uses the customer endpoint and app type.
            let registered = try await PushRegistration.register(
                PushRegistration.hexString(Data([0xde, 0xad, 0xbe, 0xef])), role: .customer, api: auth.api)
            #expect(registered.deviceToken == "deadbeef")
            #expect(registered.appType == .customer)
        }
    }

    @Test func configIsBundledAtOnceAndRefreshedWithTheETag() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let cache = FileManager.default.temporaryDirectory.appendingPathComponent("rm-config-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: cache) }
            let transport = ObservingTransport()
            let store = try ConfigStore(baseURL: url, cacheDirectory: cache, transport: transport)
            #expect(await store.config == (try AppConfig.bundled()))
            #expect(try await store.refresh() == true)
            #expect(await store.currentETag != nil)
            // The second time the server answers 304.
            #expect(try await store.refresh() == false)
            #expect(transport.count("/api/config") == 2)
            // A new store starts from the cached copy and its ETag.
            let next = try ConfigStore(baseURL: url, cacheDirectory: cache, transport: transport)
            #expect(await next.currentETag == (await store.currentETag))
            #expect(try await next.refresh() == false)
        }
    }

    /// An app update ships a newer config than the one cached by the previous version: the
    /// bundled copy wins and the server is asked without the old ETag. An older bundle does not.
    @Test func aNewerBundledConfigWinsOverTheCache() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let cache = FileManager.default.temporaryDirectory.appendingPathComponent("rm-config-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: cache) }
            let transport = ObservingTransport()
            var shipped = try AppConfig.bundled()
            shipped.version = "0.9.0"
            let old = try ConfigStore(baseURL: url, cacheDirectory: cache, transport: transport, bundled: shipped)
            #expect(try await old.refresh() == true)
            let served = await old.config
            #expect(served.version == (try AppConfig.bundled()).version)

            // The update's bundle is newer than the cached copy (1.10 after 1.9: numbers, not text).
            var update = served
            update.version = "1.10.0"
            var cached = served
            cached.version = "1.9.2"
            #expect(ConfigStore.version(update.version, isNewerThan: cached.version))
            #expect(!ConfigStore.version("1.9", isNewerThan: "1.9.0"))
            let newer = try ConfigStore(baseURL: url, cacheDirectory: cache, transport: transport, bundled: update)
            #expect(await newer.config.version == "1.10.0")
            #expect(await newer.currentETag == nil)

            // An older bundle than the cache keeps the cache and its ETag.
            var older = served
            older.version = "0.1.0"
            let kept = try ConfigStore(baseURL: url, cacheDirectory: cache, transport: transport, bundled: older)
            #expect(await kept.config == served)
            #expect(await kept.currentETag != nil)
        }
    }

    /// The app model fetches the configuration at launch, without holding the launch up.
    @Test func theConfigIsFetchedAtLaunch() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let transport = ObservingTransport()
            let config = try ConfigStore(baseURL: url, cacheDirectory: nil, transport: transport)
            let app = await AppModel(api: server.client(url), config: config)
            await app.launch()
            try await waitUntil { await config.currentETag != nil }
            #expect(transport.count("/api/config") == 1)
        }
    }
}

extension AppLayerTests {
    @Test func theAppModelWalksTheScreens() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            let store = InMemoryCredentialStore()
            let app = await AppModel(api: server.client(url, store: store))
            #expect(await app.screen == .launching)
            await app.launch()
            #expect(await app.screen == .roleSelection)
            await app.roles.select(.customer)
            #expect(await app.screen == .customerLogin)
            try await app.customer.requestCode(email: "multi@example.test")
            #expect(await app.screen == .customerCode)
            try await app.customer.verify(code: try await server.latestCode(to: "multi@example.test"))
            #expect(await app.screen == .customerCompanySelection)
            await app.switchRole()
            #expect(await app.screen == .roleSelection)
            await app.roles.select(.staff)
            try await app.staff.login(email: DemoFixtures.adminEmail, password: DemoFixtures.adminPassword)
            #expect(await app.screen == .staffSecondFactor)
            try await app.staff.requestEmailCode()
            try await app.staff.verifySecondFactor(code: try await server.latestCode(to: DemoFixtures.adminEmail))
            #expect(await app.screen == .staffMain)
            // A new launch on the same store goes straight to the staff tabs.
            let relaunched = await AppModel(api: server.client(url, store: store))
            await relaunched.launch()
            #expect(await relaunched.screen == .staffMain)
        }
    }

    /// A reinstalled app (Keychain items kept, `UserDefaults` gone) starts at the role choice,
    /// signed out; a later launch of the same installation keeps the session.
    @Test func aNewInstallationClearsTheKeychainOnce() async throws {
        let suite = "FirstLaunchTest-\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        let store = InMemoryCredentialStore()
        let session = StaffCredentials(accessToken: "old", refreshToken: "old", accessTokenExpiresAt: Date().addingTimeInterval(600))
        try store.saveStaff(session)
        try store.saveRole(.staff)

        #expect(try FirstLaunch.clearCredentialsIfNewInstall(store, defaults: defaults))
        for key in CredentialKey.allCases { #expect(try store.read(key) == nil) }
        let app = AppModel(api: APIClient(baseURL: URL(string: "http://127.0.0.1:9")!, store: store))
        await app.launch()
        #expect(app.screen == .roleSelection)
        #expect(app.api.authState == .signedOut(reason: nil))

        // The same installation launched again: what it stored since is kept.
        try store.saveStaff(session)
        try store.saveRole(.staff)
        #expect(try !FirstLaunch.clearCredentialsIfNewInstall(store, defaults: defaults))
        #expect(try store.staffCredentials() == session)
        #expect(try store.role() == .staff)
    }

    /// A Keychain that cannot delete (locked before the first unlock) leaves the mark unset,
    /// so the next launch clears the stale session after all.
    @Test func aFailedClearIsRetriedAtTheNextLaunch() throws {
        struct LockedStore: CredentialStore {
            func read(_ key: CredentialKey) throws -> Data? { nil }
            func write(_ data: Data, for key: CredentialKey) throws {}
            func delete(_ key: CredentialKey) throws { throw CocoaError(.fileWriteNoPermission) }
        }
        let suite = "FirstLaunchTest-\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        #expect(throws: CocoaError.self) { try FirstLaunch.clearCredentialsIfNewInstall(LockedStore(), defaults: defaults) }
        #expect(!defaults.bool(forKey: FirstLaunch.launchedKey))
        #expect(try FirstLaunch.clearCredentialsIfNewInstall(InMemoryCredentialStore(), defaults: defaults))
    }
}
