import Foundation
import RepairMinderKit
import RepairMinderModels
import Testing

/// The endpoint catalogue, credential stores and tolerant decoding.
@Suite struct CatalogueAndStorageTests {
    @Test(arguments: [
        (Routes.StaffAuth.login.erased, HTTPMethod.post, "/api/auth/login", RouteCredential.none),
        (Routes.StaffAuth.requestTwoFactorCode.erased, .post, "/api/auth/2fa/request", .none),
        (Routes.StaffAuth.verifyTwoFactorCode.erased, .post, "/api/auth/2fa/verify", .none),
        (Routes.StaffAuth.requestMagicLink.erased, .post, "/api/auth/magic-link/request", .none),
        (Routes.StaffAuth.verifyMagicLink.erased, .post, "/api/auth/magic-link/verify-code", .none),
        (Routes.StaffAuth.refresh.erased, .post, "/api/auth/refresh", .none),
        (Routes.StaffAuth.me.erased, .get, "/api/auth/me", .staff), (Routes.StaffAuth.logout.erased, .post, "/api/auth/logout", .staff),
        (Routes.StaffAuth.totpSetup.erased, .post, "/api/auth/totp/setup", .staff),
        (Routes.StaffAuth.totpStatus.erased, .get, "/api/auth/totp/status", .staff),
        (Routes.StaffAuth.totpVerifySetup.erased, .post, "/api/auth/totp/verify-setup", .staff),
        (Routes.StaffAuth.totpDisable.erased, .post, "/api/auth/totp/disable", .staff),
        (Routes.CustomerAuth.requestMagicLink.erased, .post, "/api/customer/auth/request-magic-link", .none),
        (Routes.CustomerAuth.verifyCode.erased, .post, "/api/customer/auth/verify-code", .none),
        (Routes.CustomerAuth.me.erased, .get, "/api/customer/auth/me", .customer),
        (Routes.CustomerAuth.logout.erased, .post, "/api/customer/auth/logout", .customer),
        (Routes.Accounts.currentUser.erased, .get, "/api/users/me", .staff),
        (Routes.Accounts.company.erased, .get, "/api/companies/{id}", .staff),
        (Routes.Dashboard.stats.erased, .get, "/api/dashboard/stats", .staff),
        (Routes.Dashboard.bookingsByTime.erased, .get, "/api/dashboard/bookings-by-time", .staff),
        (Routes.Devices.list.erased, .get, "/api/devices", .staff), (Routes.Devices.myQueue.erased, .get, "/api/devices/my-queue", .staff),
        (Routes.Devices.updateStatus.erased, .patch, "/api/orders/{orderId}/devices/{deviceId}/status", .staff),
        (Routes.Devices.executeAction.erased, .post, "/api/orders/{orderId}/devices/{deviceId}/action", .staff),
        (Routes.Devices.delete.erased, .delete, "/api/orders/{orderId}/devices/{deviceId}", .staff),
        (Routes.Orders.list.erased, .get, "/api/orders", .staff), (Routes.Orders.detail.erased, .get, "/api/orders/{id}", .staff),
        (Routes.Orders.deletePayment.erased, .delete, "/api/orders/{id}/payments/{paymentId}", .staff),
        (Routes.Orders.sendQuote.erased, .post, "/api/orders/{id}/send-quote", .staff),
        (Routes.Orders.collect.erased, .post, "/api/orders/{id}/collect", .staff),
        (Routes.Clients.list.erased, .get, "/api/clients", .staff), (Routes.Clients.delete.erased, .delete, "/api/clients/{id}", .staff),
        (Routes.Clients.search.erased, .get, "/api/clients/search", .staff),
        (Routes.Clients.import.erased, .post, "/api/clients/import", .staff),
        (Routes.Tickets.list.erased, .get, "/api/tickets", .staff),
        (Routes.Tickets.reassign.erased, .post, "/api/tickets/{id}/reassign", .staff),
        (Routes.Tickets.createEnquiry.erased, .post, "/api/tickets/enquiry", .none),
        (Routes.Push.registerDeviceToken.erased, .post, "/api/user/device-token", .staff),
        (Routes.Push.unregisterDeviceToken.erased, .delete, "/api/user/device-token", .staff),
        (Routes.Push.deviceTokens.erased, .get, "/api/user/device-tokens", .staff),
        (Routes.Push.preferences.erased, .get, "/api/user/push-preferences", .staff),
        (Routes.Push.updatePreferences.erased, .put, "/api/user/push-preferences", .staff),
        (Routes.Push.registerCustomerDeviceToken.erased, .post, "/api/customer/device-token", .customer),
        (Routes.CustomerPortal.orders.erased, .get, "/api/customer/orders", .customer),
        (Routes.CustomerPortal.approve.erased, .post, "/api/customer/orders/{orderId}/approve", .customer),
        (Routes.CustomerPortal.deviceImage.erased, .get, "/api/customer/devices/{deviceId}/images/{imageId}/file", .customer),
        (Routes.Public.config.erased, .get, "/api/config", .none), (Routes.Public.health.erased, .get, "/api/health", .none),
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
        #expect(Routes.Accounts.company.path.rendered(["c 1"]) == "/api/companies/c%201")
        #expect(Routes.Accounts.company.path.rendered(["a/b"]) == "/api/companies/a%2Fb")
        #expect(Routes.Orders.deleteItem.path.rendered(["o", "i"]) == "/api/orders/o/items/i")
        #expect(Routes.Orders.deleteItem.path.rendered(["o"]) == nil)
    }

    @Test func routesAreFoundByPathWithLiteralsFirst() {
        #expect(Routes.route(.get, path: "/api/clients/search")?.path == Routes.Clients.search.path)
        #expect(Routes.route(.get, path: "/api/clients/42")?.path == Routes.Clients.detail.path)
        #expect(Routes.route(.get, path: "//api//auth/me")?.path == Routes.StaffAuth.me.path)
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
