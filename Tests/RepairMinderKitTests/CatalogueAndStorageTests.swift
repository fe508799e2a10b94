import Foundation
import RepairMinderKit
import RepairMinderModels
import Testing

/// The endpoint catalogue, credential stores and tolerant decoding.
@Suite struct CatalogueAndStorageTests {
    @Test(arguments: [
        (Routes.staffAuth.login.erased, HTTPMethod.post, "/api/auth/login", RouteCredential.none),
        (Routes.staffAuth.requestTwoFactorCode.erased, .post, "/api/auth/2fa/request", .none),
        (Routes.staffAuth.verifyTwoFactorCode.erased, .post, "/api/auth/2fa/verify", .none),
        (Routes.staffAuth.requestMagicLink.erased, .post, "/api/auth/magic-link/request", .none),
        (Routes.staffAuth.verifyMagicLink.erased, .post, "/api/auth/magic-link/verify-code", .none),
        (Routes.staffAuth.refresh.erased, .post, "/api/auth/refresh", .none),
        (Routes.staffAuth.me.erased, .get, "/api/auth/me", .staff), (Routes.staffAuth.logout.erased, .post, "/api/auth/logout", .staff),
        (Routes.staffAuth.totpSetup.erased, .post, "/api/auth/totp/setup", .staff),
        (Routes.staffAuth.totpStatus.erased, .get, "/api/auth/totp/status", .staff),
        (Routes.staffAuth.totpVerifySetup.erased, .post, "/api/auth/totp/verify-setup", .staff),
        (Routes.staffAuth.totpDisable.erased, .post, "/api/auth/totp/disable", .staff),
        (Routes.customerAuth.requestMagicLink.erased, .post, "/api/customer/auth/request-magic-link", .none),
        (Routes.customerAuth.verifyCode.erased, .post, "/api/customer/auth/verify-code", .none),
        (Routes.customerAuth.me.erased, .get, "/api/customer/auth/me", .customer),
        (Routes.customerAuth.logout.erased, .post, "/api/customer/auth/logout", .customer),
        (Routes.accounts.currentUser.erased, .get, "/api/users/me", .staff),
        (Routes.accounts.company.erased, .get, "/api/companies/{id}", .staff),
        (Routes.dashboard.stats.erased, .get, "/api/dashboard/stats", .staff),
        (Routes.dashboard.bookingsByTime.erased, .get, "/api/dashboard/bookings-by-time", .staff),
        (Routes.devices.list.erased, .get, "/api/devices", .staff), (Routes.devices.myQueue.erased, .get, "/api/devices/my-queue", .staff),
        (Routes.devices.updateStatus.erased, .patch, "/api/orders/{orderId}/devices/{deviceId}/status", .staff),
        (Routes.devices.executeAction.erased, .post, "/api/orders/{orderId}/devices/{deviceId}/action", .staff),
        (Routes.devices.delete.erased, .delete, "/api/orders/{orderId}/devices/{deviceId}", .staff),
        (Routes.orders.list.erased, .get, "/api/orders", .staff), (Routes.orders.detail.erased, .get, "/api/orders/{id}", .staff),
        (Routes.orders.deletePayment.erased, .delete, "/api/orders/{id}/payments/{paymentId}", .staff),
        (Routes.orders.sendQuote.erased, .post, "/api/orders/{id}/send-quote", .staff),
        (Routes.orders.collect.erased, .post, "/api/orders/{id}/collect", .staff),
        (Routes.clients.list.erased, .get, "/api/clients", .staff), (Routes.clients.delete.erased, .delete, "/api/clients/{id}", .staff),
        (Routes.clients.search.erased, .get, "/api/clients/search", .staff),
        (Routes.clients.import.erased, .post, "/api/clients/import", .staff),
        (Routes.tickets.list.erased, .get, "/api/tickets", .staff),
        (Routes.tickets.reassign.erased, .post, "/api/tickets/{id}/reassign", .staff),
        (Routes.tickets.createEnquiry.erased, .post, "/api/tickets/enquiry", .none),
        (Routes.push.registerDeviceToken.erased, .post, "/api/user/device-token", .staff),
        (Routes.push.unregisterDeviceToken.erased, .delete, "/api/user/device-token", .staff),
        (Routes.push.deviceTokens.erased, .get, "/api/user/device-tokens", .staff),
        (Routes.push.preferences.erased, .get, "/api/user/push-preferences", .staff),
        (Routes.push.updatePreferences.erased, .put, "/api/user/push-preferences", .staff),
        (Routes.push.registerCustomerDeviceToken.erased, .post, "/api/customer/device-token", .customer),
        (Routes.customerPortal.orders.erased, .get, "/api/customer/orders", .customer),
        (Routes.customerPortal.approve.erased, .post, "/api/customer/orders/{orderId}/approve", .customer),
        (Routes.customerPortal.deviceImage.erased, .get, "/api/customer/devices/{deviceId}/images/{imageId}/file", .customer),
        (Routes.public.config.erased, .get, "/api/config", .none), (Routes.public.health.erased, .get, "/api/health", .none),
    ])
    func catalogueEntry(route: AnyRoute, method: HTTPMethod, path: String, credential: RouteCredential) {
        #expect(route.method == method)
        #expect(route.path.description == path)
        #expect(route.credential == credential)
        #expect(Routes.all.contains { $0.method == method && $0.path == route.path })
    }

    @Test func everyRouteIsListedOnce() {
        let keys = Routes.all.map(\.description)
        #expect(Set(keys).count == keys.count)
        // Seed 004's catalogue: 12 staff auth, 4 customer auth, 8 dashboard, 11 devices, 17 orders,
        // 8 clients, 9 tickets, 5 staff push, 6 customer portal, config.
        #expect(Routes.all.count >= 81)
    }

    @Test func pathValuesAreEscapedAndCounted() {
        #expect(Routes.accounts.company.path.rendered(["c 1"]) == "/api/companies/c%201")
        #expect(Routes.accounts.company.path.rendered(["a/b"]) == "/api/companies/a%2Fb")
        #expect(Routes.orders.deleteItem.path.rendered(["o", "i"]) == "/api/orders/o/items/i")
        #expect(Routes.orders.deleteItem.path.rendered(["o"]) == nil)
    }

    @Test func routesAreFoundByPathWithLiteralsFirst() {
        #expect(Routes.route(.get, path: "/api/clients/search")?.path == Routes.clients.search.path)
        #expect(Routes.route(.get, path: "/api/clients/42")?.path == Routes.clients.detail.path)
        #expect(Routes.route(.get, path: "//api//auth/me")?.path == Routes.staffAuth.me.path)
        #expect(Routes.route(.post, path: "/api/nothing") == nil)
    }

    @Test func fileStoreIsPrivateAndReplacesAtomically() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rm-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileCredentialStore(directory: directory)
        #expect(try store.staffCredentials() == nil)
        let first = StaffCredentials(accessToken: "a", refreshToken: "r", accessTokenExpiresAt: Date(timeIntervalSince1970: 100))
        try store.saveStaff(first)
        let second = StaffCredentials(accessToken: "b", refreshToken: "s", accessTokenExpiresAt: Date(timeIntervalSince1970: 200))
        try store.saveStaff(second)
        #expect(try store.staffCredentials() == second)
        let file = directory.appendingPathComponent("staff-credentials.json").path
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
        #expect(mode & 0o777 == 0o600)
        let directoryMode = try #require(try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions] as? Int)
        #expect(directoryMode & 0o777 == 0o700)
        // No temporary files left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["staff-credentials.json"])
        try store.saveRole(.customer)
        #expect(try store.role() == .customer)
        try store.delete(.staff)
        #expect(try store.staffCredentials() == nil)
        // A damaged file is an error, not "signed out".
        try Data("{".utf8).write(to: URL(fileURLWithPath: file))
        #expect(throws: (any Error).self) { _ = try store.staffCredentials() }
    }

    @Test func xdgConfigHomeIsHonoured() {
        #expect(FileCredentialStore.defaultDirectory(environment: ["XDG_CONFIG_HOME": "/x"]).path == "/x/repairminder")
        #expect(FileCredentialStore.defaultDirectory(environment: ["HOME": "/home/a"]).path == "/home/a/.config/repairminder")
    }

    @Test func paginationDecodesBothSpellings() throws {
        let snake = try JSONDecoder().decode(Pagination.self, from: Data(#"{"page":1,"limit":20,"total":100,"total_pages":5}"#.utf8))
        let camel = try JSONDecoder().decode(Pagination.self, from: Data(#"{"page":1,"limit":20,"total":100,"totalPages":5}"#.utf8))
        let neither = try JSONDecoder().decode(Pagination.self, from: Data(#"{"page":1,"limit":20,"total":101}"#.utf8))
        #expect(snake == camel)
        #expect(snake.totalPages == 5)
        #expect(neither.totalPages == 6)
    }

    @Test func seedSampleDocumentsDecode() throws {
        // Seed 000's 2FA verify answer, with integer booleans and snake_case.
        let verify = #"""
            {"success":true,"data":{"token":"eyJ","refreshToken":"opaque","expiresIn":900,
            "user":{"id":"uuid","email":"staff@example.com","first_name":"John","last_name":"Doe","company_id":"uuid",
            "role":"admin","phi_access_level":"full","data_classification":"internal","is_active":1,"magic_link_enabled":1,
            "company_status":"active"},
            "company":{"id":"uuid","name":"Acme Repairs","status":"active","currency_code":"GBP","vat_number":"GB123456789",
            "logo_url":"https://x","vat_rate_repair":"20.00","vat_rate_device_sale":"20.00","vat_rate_accessory":"20.00",
            "vat_rate_device_purchase":"0.00"}}}
            """#
        let tokens = try APIClient.decodeData(StaffTokenResponse.self, from: Data(verify.utf8))
        #expect(tokens.user.isActive)
        #expect(tokens.user.magicLinkEnabled == true)
        #expect(tokens.company.vatRateDevicePurchase == "0.00")
        // Seed 000's multi-company answer.
        let selection = #"""
            {"success":true,"data":{"requiresCompanySelection":true,"companies":[{"id":"uuid1","name":"Acme Repairs","logoUrl":"https://..."},
            {"id":"uuid2","name":"Beta Tech","logoUrl":null}],"email":"customer@example.com","code":"123456"}}
            """#
        let decoded = try APIClient.decodeData(CompanySelectionResponse.self, from: Data(selection.utf8))
        #expect(decoded.companies[1].logoUrl == nil)
        // Seed 001's older user object: extra fields (username, verified, two_factor_enabled,
        // company_name) are ignored, booleans as true/false.
        let older = #"""
            {"id":"u1","email":"old@example.com","username":"oldtimer","first_name":"Old","last_name":null,"company_id":"c1",
             "company_name":"Acme","role":"office","is_active":true,"verified":true,"two_factor_enabled":false,
             "magic_link_enabled":false,"last_login":null,"created_at":"2025-01-01T00:00:00Z","updated_at":"2025-01-01T00:00:00Z"}
            """#
        let user = try JSONDecoder().decode(StaffUser.self, from: Data(older.utf8))
        #expect(user.role == .office)
        #expect(user.isActive)
        #expect(user.magicLinkEnabled == false)
        // The bundled configuration decodes.
        #expect(try AppConfig.bundled().orderStatuses.count == 5)
    }
}
