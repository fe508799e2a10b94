import Foundation
import RepairMinderKit
import RepairMinderModels
import Testing

/// The endpoint catalogue, credential stores and tolerant decoding.
@Suite struct CatalogueAndStorageTests {
    @Test(arguments: [
        (APIEndpoint.login(LoginRequest(email: "a@b.c", password: "p")), HTTPMethod.post, "/api/auth/login", EndpointAuth.none),
        (.requestTwoFactorCode(TwoFactorCodeRequest(userId: "u", email: "e")), .post, "/api/auth/2fa/request", .none),
        (.verifyTwoFactorCode(TwoFactorVerifyRequest(userId: "u", code: "1")), .post, "/api/auth/2fa/verify", .none),
        (.requestMagicLink(MagicLinkRequest(email: "e")), .post, "/api/auth/magic-link/request", .none),
        (.verifyMagicLink(MagicLinkVerifyRequest(email: "e", code: "1")), .post, "/api/auth/magic-link/verify-code", .none),
        (.refresh(RefreshRequest(refreshToken: "r")), .post, "/api/auth/refresh", .none),
        (.me, .get, "/api/auth/me", .staff), (.logout, .post, "/api/auth/logout", .staff),
        (.totpSetup, .post, "/api/auth/totp/setup", .staff), (.totpStatus, .get, "/api/auth/totp/status", .staff),
        (.totpVerifySetup(TOTPCodeRequest(code: "1")), .post, "/api/auth/totp/verify-setup", .staff),
        (.totpDisable(TOTPCodeRequest(code: "1")), .post, "/api/auth/totp/disable", .staff),
        (.customerRequestMagicLink(CustomerMagicLinkRequest(email: "e")), .post, "/api/customer/auth/request-magic-link", .none),
        (.customerVerifyCode(CustomerVerifyCodeRequest(email: "e", code: "1")), .post, "/api/customer/auth/verify-code", .none),
        (.customerMe, .get, "/api/customer/auth/me", .customer), (.customerLogout, .post, "/api/customer/auth/logout", .customer),
        (.currentUser, .get, "/api/users/me", .staff), (.company(id: "c 1"), .get, "/api/companies/c%201", .staff),
        (.dashboardStats, .get, "/api/dashboard/stats", .staff), (.dashboardBookingsByTime, .get, "/api/dashboard/bookings-by-time", .staff),
        (.devices(), .get, "/api/devices", .staff), (.myQueue, .get, "/api/devices/my-queue", .staff),
        (.updateDeviceStatus(orderId: "o", deviceId: "d", body: Data()), .patch, "/api/orders/o/devices/d/status", .staff),
        (.executeDeviceAction(orderId: "o", deviceId: "d", body: Data()), .post, "/api/orders/o/devices/d/action", .staff),
        (.deleteOrderDevice(orderId: "o", deviceId: "d"), .delete, "/api/orders/o/devices/d", .staff),
        (.orders(page: 2, limit: 20), .get, "/api/orders", .staff), (.order(id: "o"), .get, "/api/orders/o", .staff),
        (.deleteOrderPayment(orderId: "o", paymentId: "p"), .delete, "/api/orders/o/payments/p", .staff),
        (.sendQuote(orderId: "o"), .post, "/api/orders/o/send-quote", .staff), (.collectOrder(orderId: "o"), .post, "/api/orders/o/collect", .staff),
        (.clients(), .get, "/api/clients", .staff), (.deleteClient(id: "c"), .delete, "/api/clients/c", .staff),
        (.searchClients(query: "jo"), .get, "/api/clients/search", .staff), (.importClients(body: Data()), .post, "/api/clients/import", .staff),
        (.tickets(), .get, "/api/tickets", .staff), (.reassignTicket(id: "t", body: Data()), .post, "/api/tickets/t/reassign", .staff),
        (.createEnquiry(body: Data()), .post, "/api/tickets/enquiry", .none),
        (.registerDeviceToken(DeviceTokenRegistration(deviceToken: "t", platform: .ios, appType: .staff)), .post, "/api/user/device-token", .staff),
        (.unregisterDeviceToken(DeviceTokenRemoval(deviceToken: "t")), .delete, "/api/user/device-token", .staff),
        (.deviceTokens, .get, "/api/user/device-tokens", .staff), (.pushPreferences, .get, "/api/user/push-preferences", .staff),
        (.updatePushPreferences(PushPreferences()), .put, "/api/user/push-preferences", .staff),
        (.registerCustomerDeviceToken(DeviceTokenRegistration(deviceToken: "t", platform: .ios, appType: .customer)), .post, "/api/customer/device-token", .customer),
        (.customerOrders, .get, "/api/customer/orders", .customer),
        (.approveCustomerOrder(orderId: "o", body: Data()), .post, "/api/customer/orders/o/approve", .customer),
        (.customerDeviceImage(deviceId: "d", imageId: "i"), .get, "/api/customer/devices/d/images/i/file", .customer),
        (.config, .get, "/api/config", .none), (.health, .get, "/api/health", .none),
    ])
    func catalogueEntry(endpoint: APIEndpoint, method: HTTPMethod, path: String, auth: EndpointAuth) {
        #expect(endpoint.method == method)
        #expect(endpoint.path == path)
        #expect(endpoint.auth == auth)
    }

    @Test func paginationQuery() {
        #expect(APIEndpoint.orders(page: 2, limit: 20).query.map { "\($0.name)=\($0.value ?? "")" } == ["page=2", "limit=20"])
        #expect(APIEndpoint.orders().query.isEmpty)
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
