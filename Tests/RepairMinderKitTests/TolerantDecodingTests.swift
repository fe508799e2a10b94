import Foundation
import RepairMinderKit
import RepairMinderModels
import Testing

/// Issue 28, "tolerant decoding": every answer the SDK reads is decoded with values it has never
/// seen (enum values a newer server added, `null` where a field may be empty, the other casing
/// of each key, keys it does not know), with `ResponseDecoder`, the decoder `APIClient` and
/// `REKIClient` use; an unknown enum value is `.unknown(raw)` and encodes back as `raw`.
@Suite struct TolerantDecodingTests {
    static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try ResponseDecoder.decode(type, from: Data(json.utf8))
    }

    /// The JSON string `value` encodes as.
    static func encoded(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    // MARK: Staff

    /// `/api/auth/me`: an unknown role and company status, camelCase keys where the server
    /// sends snake_case (and the reverse for `has_password`), nulls, booleans as `true`.
    @Test func staffMeWithUnknownRoleAndStatusInEitherCasing() throws {
        let me = try Self.decode(
            StaffMeResponse.self,
            """
            {"user": {"id": "u1", "email": "ada@acme.test", "firstName": "Ada", "last_name": null,
                      "companyId": "c1", "role": "regional_manager", "phiAccessLevel": null,
                      "isActive": true, "magic_link_enabled": null, "companyStatus": "under_review",
                      "lastLogin": null, "favourite_colour": "teal"},
             "company": {"id": "c1", "name": "Acme", "status": "under_review", "currencyCode": "GBP",
                         "vat_number": null, "logoUrl": null, "vatRateRepair": "20.00", "branches": 3},
             "has_password": false}
            """)
        #expect(me.user.role == .unknown("regional_manager"))
        #expect(!me.user.role.isKnown)
        #expect(me.user.firstName == "Ada" && me.user.lastName == nil)
        #expect(me.user.companyId == "c1" && me.user.isActive && me.user.magicLinkEnabled == nil)
        #expect(me.user.companyStatus == "under_review" && me.user.createdAt == nil)
        #expect(me.company.status == .unknown("under_review"))
        #expect(me.company.currencyCode == "GBP" && me.company.vatRateRepair == "20.00" && me.company.logoUrl == nil)
        #expect(me.company.vatRateDevicePurchase == nil)
        #expect(me.hasPassword == false)
        // Encoded back as sent, in the server's own spelling.
        let encoded = try Self.encoded(me)
        #expect(encoded.contains(#""role":"regional_manager""#) && encoded.contains(#""status":"under_review""#))
        #expect(encoded.contains(#""company_id":"c1""#))
    }

    /// A completed sign-in (2FA verify, magic link, passkey, registration): snake_case token
    /// fields, a role and status never seen.
    @Test func staffTokenResponseWithSnakeCaseKeys() throws {
        let tokens = try Self.decode(
            StaffTokenResponse.self,
            """
            {"token": "a.b.c", "refresh_token": "r1", "expires_in": 900, "session_kind": "mobile",
             "user": {"id": "u1", "email": "ada@acme.test", "company_id": "c1", "role": "auditor", "is_active": 1},
             "company": {"id": "c1", "name": "Acme", "status": "archived"}}
            """)
        #expect(tokens.refreshToken == "r1" && tokens.expiresIn == 900)
        #expect(tokens.user.role == .unknown("auditor") && tokens.user.firstName == nil)
        #expect(tokens.company.status == .unknown("archived") && tokens.company.currencyCode == nil)
    }

    /// Login step 1: a second factor this version cannot answer is kept, the known ones still offered.
    @Test func loginChallengeWithAnUnknownMethod() throws {
        let challenge = try Self.decode(
            LoginChallengeResponse.self,
            """
            {"requires_two_factor": true, "user_id": "u1", "email": "ada@acme.test",
             "user": {"id": "u1", "email": "ada@acme.test", "first_name": "Ada", "lastName": null, "company_id": "c1"},
             "methods": ["totp", "hardware_token", "recovery_code"], "twoFactorMethods": ["totp", "sms"],
             "challenge_token": "ct", "passkey": null, "risk": "low"}
            """)
        #expect(challenge.requiresTwoFactor && challenge.userId == "u1" && challenge.challengeToken == "ct")
        #expect(challenge.user.firstName == "Ada" && challenge.user.lastName == nil && challenge.user.companyId == "c1")
        #expect(challenge.methods == [.totp, .unknown("hardware_token"), .recoveryCode])
        #expect(challenge.twoFactorMethods == [.totp, .unknown("sms")])
        #expect(challenge.passkey == nil)
        #expect(!challenge.acceptsEmailedCode)
    }

    /// Magic link verify: either answer, told apart by `requiresTwoFactor` in either casing.
    @Test func magicLinkAnswersInEitherCasing() throws {
        let challenge = try Self.decode(
            MagicLinkVerifyResponse.self,
            """
            {"requires_two_factor": true, "user_id": "u1", "email": "ada@acme.test",
             "user": {"id": "u1", "email": "ada@acme.test", "company_id": "c1"}, "methods": ["passkey", "face_id"]}
            """)
        guard case .secondFactorRequired(let step) = challenge else {
            Issue.record("expected a second factor, got \(challenge)")
            return
        }
        #expect(step.methods == [.passkey, .unknown("face_id")])
        let signedIn = try Self.decode(
            MagicLinkVerifyResponse.self,
            """
            {"token": "a.b.c", "refreshToken": "r1", "expiresIn": 900,
             "user": {"id": "u1", "email": "ada@acme.test", "company_id": "c1", "role": "owner", "is_active": true},
             "company": {"id": "c1", "name": "Acme", "status": "active"}}
            """)
        guard case .signedIn(let tokens) = signedIn else {
            Issue.record("expected tokens, got \(signedIn)")
            return
        }
        #expect(tokens.user.role == .unknown("owner") && tokens.company.status == .active)
    }

    @Test func refreshAnswerInSnakeCase() throws {
        let refreshed = try Self.decode(RefreshResponse.self, #"{"token": "a.b.c", "refresh_token": "r2", "expires_in": 600, "rotated": true}"#)
        #expect(refreshed == RefreshResponse(token: "a.b.c", refreshToken: "r2", expiresIn: 600))
    }

    /// An error envelope with a code this version does not know keeps the message and the code.
    @Test func errorEnvelopeWithAnUnknownCode() throws {
        let failure = try Self.decode(ErrorEnvelope.self, #"{"success": false, "error": "Shop on fire", "code": "SHOP_ON_FIRE", "trace_id": "t"}"#)
        #expect(failure.error == "Shop on fire" && failure.code == ErrorCode(rawValue: "SHOP_ON_FIRE"))
    }

    // MARK: Customer

    /// Customer sign-in: `name` null (seed 000 declares it optional) is derived, snake_case keys read.
    @Test func customerSignInWithANullName() throws {
        let answer = try Self.decode(
            CustomerVerifyCodeResponse.self,
            """
            {"token": "a.b.c",
             "client": {"id": "k1", "first_name": "Jane", "last_name": "Customer", "email": "jane@customer.test", "name": null},
             "company": {"id": "c1", "name": "Acme", "logo_url": null, "theme": "dark"}}
            """)
        guard case .signedIn(let signedIn) = answer else {
            Issue.record("expected a sign-in, got \(answer)")
            return
        }
        #expect(signedIn.client.name == "Jane Customer" && signedIn.client.firstName == "Jane")
        #expect(signedIn.company.logoUrl == nil)
    }

    @Test func customerCompanySelectionInSnakeCase() throws {
        let answer = try Self.decode(
            CustomerVerifyCodeResponse.self,
            """
            {"requires_company_selection": true, "email": "jane@customer.test", "code": "482913",
             "companies": [{"id": "c1", "name": "Acme"}, {"id": "c2", "name": "Beta", "logoUrl": "https://b.test/logo"}]}
            """)
        guard case .selectCompany(let selection) = answer else {
            Issue.record("expected a company choice, got \(answer)")
            return
        }
        #expect(selection.companies.map(\.id) == ["c1", "c2"])
        #expect(selection.companies.map(\.logoUrl) == [nil, "https://b.test/logo"])
    }

    /// A client with no name at all is shown by email; an absent `name` is the same as `null`.
    @Test func customerMeWithoutAnyName() throws {
        let me = try Self.decode(
            CustomerMeResponse.self,
            #"{"client": {"id": "k1", "firstName": null, "email": "jane@customer.test"}, "company": {"id": "c1", "name": "Acme"}}"#)
        #expect(me.client.name == "jane@customer.test" && me.client.lastName == nil)
    }

    // MARK: Account

    @Test func sessionsWithNullsAndSnakeCase() throws {
        let sessions = try Self.decode(
            [SessionInfo].self,
            """
            [{"id": "s1", "current": true, "is_mobile": true, "user_agent": null, "ipAddress": "203.0.113.7",
              "created_at": "2026-11-20T10:00:00Z", "location": "London"},
             {"id": "s2", "current": false, "isMobile": false, "createdAt": "2026-11-19T10:00:00Z", "lastUsedAt": null}]
            """)
        #expect(sessions.map(\.isMobile) == [true, false])
        #expect(sessions[0].userAgent == nil && sessions[0].ipAddress == "203.0.113.7" && sessions[0].lastUsedAt == nil)
        #expect(sessions[1].createdAt == "2026-11-19T10:00:00Z")
    }

    /// The activity log: an event type added by a newer server stays in the list as `.unknown`.
    @Test func activityWithAnUnknownEventType() throws {
        let events = try Self.decode(
            [ActivityEvent].self,
            """
            [{"id": "e1", "type": "passkey_renamed", "at": "2026-11-20T10:00:00Z", "ip_address": null, "session_id": "s1"},
             {"id": "e2", "type": "login_succeeded", "at": "2026-11-19T10:00:00Z", "userAgent": "RM", "geo": {"country": "GB"}}]
            """)
        #expect(events.map(\.type) == [.unknown("passkey_renamed"), .loginSucceeded])
        #expect(events[0].knownType == nil && events[1].knownType == .loginSucceeded)
        #expect(events[0].sessionId == "s1" && events[1].userAgent == "RM" && events[1].ipAddress == nil)
        #expect(try Self.encoded(events[0]).contains(#""type":"passkey_renamed""#))
    }

    /// A list's `pagination` in either casing (seed 004: both are sent), with extras.
    @Test func paginationInEitherCasing() throws {
        let snake = try Self.decode(Pagination.self, #"{"page": 2, "limit": 20, "total": 41, "total_pages": 3, "has_more": true}"#)
        let camel = try Self.decode(Pagination.self, #"{"page": 2, "limit": 20, "total": 41, "totalPages": 3}"#)
        #expect(snake == camel && camel == Pagination(page: 2, limit: 20, total: 41, totalPages: 3))
    }

    @Test func revokedCountAndMessages() throws {
        #expect(try Self.decode(RevokedSessionsResponse.self, #"{"revoked": 2, "kept": 1}"#).revoked == 2)
        #expect(try Self.decode(MessageResponse.self, #"{"message": "Sent", "channel": "email"}"#).message == "Sent")
    }

    // MARK: Push

    /// A device token of a platform and app this version does not know, keys in snake_case.
    @Test func deviceTokensWithUnknownPlatformAndApp() throws {
        let tokens = try Self.decode(
            [RegisteredDeviceToken].self,
            """
            [{"id": "d1", "device_token": "abc", "platform": "harmonyos", "app_type": "technician"},
             {"id": "d2", "deviceToken": "def", "platform": "ios", "appType": "staff", "badge": 2}]
            """)
        #expect(tokens.map(\.platform) == [.unknown("harmonyos"), .ios])
        #expect(tokens.map(\.appType) == [.unknown("technician"), .staff])
        #expect(tokens[0].deviceToken == "abc")
        let encoded = try Self.encoded(tokens[0])
        #expect(encoded.contains(#""platform":"harmonyos""#) && encoded.contains(#""appType":"technician""#))
    }

    @Test func pushPreferencesInSnakeCaseWithExtras() throws {
        let preferences = try Self.decode(
            PushPreferences.self, #"{"enabled": true, "orders": false, "devices": true, "enquiries": true, "payments": false, "quiet_hours": null}"#)
        #expect(preferences == PushPreferences(orders: false, payments: false))
    }

    // MARK: Public

    /// `/api/config` in snake_case: the model's keys are found, but the workflows, which are
    /// data (a dictionary's keys), keep their spelling.
    @Test func configInSnakeCaseKeepsItsDictionaryKeys() throws {
        let option = #"{"key": "device_received", "label": "Received", "customer_label": null, "is_terminal": false, "sort_order": 0}"#
        let config = try Self.decode(
            AppConfig.self,
            """
            {"version": "2.0.0", "generated_at": "2026-11-20T10:00:00Z",
             "device_statuses": {"repair": [\(option)], "trade_in": [\(option)]},
             "order_statuses": [\(option)], "workflows": ["repair", "trade_in"], "payment_methods": [], "intake_methods": [],
             "carriers": [], "priorities": [], "condition_grades": [], "accessory_types": [], "passcode_types": [],
             "find_my_statuses": [], "image_types": [], "authorisation_types": [], "ticket_statuses": [], "tax_regimes": []}
            """)
        #expect(config.generatedAt == "2026-11-20T10:00:00Z")
        #expect(Set(config.deviceStatuses.keys) == ["repair", "trade_in"])
        #expect(config.orderStatuses.first?.isTerminal == false && config.orderStatuses.first?.sortOrder == 0)
        #expect(config.orderStatuses.first?.customerLabel == nil)
    }

    @Test func healthWithExtras() throws {
        let health = try Self.decode(HealthResponse.self, #"{"status": "degraded", "version": "9.9", "database": "ok", "uptime": 12}"#)
        #expect(health.status == "degraded")
    }

    /// Catalogue answers are passed through as `JSONValue`: their keys stay as sent.
    @Test func catalogueValuesKeepTheirKeys() throws {
        let value = try Self.decode(JSONValue.self, #"{"order_number": 12, "customerName": "Jane", "items": [{"unit_price": 1.5}]}"#)
        #expect(value == ["order_number": 12, "customerName": "Jane", "items": [["unit_price": .number(1.5)]]])
    }

    // MARK: Authenticator app

    @Test func totpAnswersInSnakeCase() throws {
        let setup = try Self.decode(TOTPSetupResponse.self, #"{"secret": "JBSWY3DP", "otpauth_url": "otpauth://totp/x", "qr": null}"#)
        #expect(setup.otpauthUrl == "otpauth://totp/x")
        let enabled = try Self.decode(TOTPEnabledResponse.self, #"{"enabled": true, "recovery_codes": ["ABCD2345"]}"#)
        #expect(enabled.recoveryCodes == ["ABCD2345"])
        let status = try Self.decode(TOTPStatusResponse.self, #"{"enabled": true, "recovery_codes_remaining": 7, "method": "totp"}"#)
        #expect(status == TOTPStatusResponse(enabled: true, recoveryCodesRemaining: 7))
        #expect(try Self.decode(TOTPDisabledResponse.self, #"{"enabled": false}"#).enabled == false)
    }

    // MARK: Passkeys

    @Test func passkeyListWithNullsAndSnakeCase() throws {
        let passkeys = try Self.decode(
            [Passkey].self,
            """
            [{"id": "p1", "name": "iPhone", "created_at": "2026-11-20T10:00:00Z", "last_used_at": null, "backed_up": true, "aaguid": "x"},
             {"id": "p2", "name": "YubiKey", "createdAt": "2026-11-19T10:00:00Z", "backedUp": false}]
            """)
        #expect(passkeys.map(\.backedUp) == [true, false])
        #expect(passkeys.map(\.lastUsedAt) == [nil, nil] && passkeys[0].createdAt == "2026-11-20T10:00:00Z")
    }

    @Test func passkeyOptionsInSnakeCase() throws {
        let login = try Self.decode(
            PasskeyLoginOptions.self,
            """
            {"challenge_id": "ch1", "public_key": {"challenge": "Y2g", "timeout": 60000, "rp_id": "acme.test",
             "allow_credentials": [], "user_verification": "required", "hints": ["client-device"]}}
            """)
        #expect(login.challengeId == "ch1" && login.publicKey.rpId == "acme.test" && login.publicKey.userVerification == "required")
        let registration = try Self.decode(
            PasskeyRegistrationOptions.self,
            """
            {"challengeId": "ch2", "publicKey": {"rp": {"id": "acme.test", "name": "Acme"},
             "user": {"id": "dXNlcg", "name": "ada@acme.test", "display_name": "Ada"}, "challenge": "Y2g",
             "pub_key_cred_params": [{"type": "public-key", "alg": -7}], "timeout": 60000,
             "exclude_credentials": [{"type": "public-key", "id": "cred"}],
             "authenticator_selection": {"resident_key": "required", "require_resident_key": true, "user_verification": "required"},
             "attestation": "none", "extensions": {"credProps": true}}}
            """)
        #expect(registration.publicKey.user.displayName == "Ada" && registration.publicKey.pubKeyCredParams.map(\.alg) == [-7])
        #expect(registration.publicKey.excludeCredentials.map(\.id) == ["cred"])
        #expect(registration.publicKey.authenticatorSelection.requireResidentKey)
    }

    // MARK: REKI

    /// REKI's token fields are snake_case in its contract; camelCase is read too.
    @Test func rekiAnswersInEitherCasing() throws {
        let auth = try Self.decode(
            REKIAuthResponse.self,
            #"{"user": {"id": "r1", "email": "reki.user@example.com", "created_at": "2026-02-15T10:00:00.000Z"}, "accessToken": "a", "refreshToken": "b"}"#)
        #expect(auth.accessToken == "a" && auth.refreshToken == "b" && auth.user.createdAt == "2026-02-15T10:00:00.000Z")
        #expect(try Self.decode(REKITokenPair.self, #"{"access_token": "c", "refresh_token": "d", "token_type": "Bearer"}"#).refreshToken == "d")
        #expect(try Self.decode(REKIUser.self, #"{"id": "r1", "email": "e@x.test", "createdAt": "t", "name": null}"#).createdAt == "t")
        let failure = try Self.decode(REKIErrorBody.self, #"{"status_code": 401, "message": "Invalid credentials", "timestamp": "t", "path": "/auth/login"}"#)
        #expect(failure.statusCode == 401)
    }

    // MARK: The rule itself

    /// Known values are found whatever decoder reads them; unknown ones are kept only by the
    /// SDK's: a plain `JSONDecoder` (the server's, for request bodies and its own rows) refuses
    /// them naming the allowed values, as it always did.
    @Test func unknownValuesAreKeptOnlyWhereTheDecoderAcceptsThem() throws {
        #expect(try Self.decode([UserRole].self, #"["office", "intern"]"#) == [.office, .unknown("intern")])
        #expect(try JSONDecoder().decode([UserRole].self, from: Data(#"["master_admin"]"#.utf8)) == [.masterAdmin])
        #expect {
            try JSONDecoder().decode(DeviceTokenRegistration.self, from: Data(#"{"deviceToken": "t", "platform": "windows", "appType": "staff"}"#.utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return (context.underlyingError as? FieldProblem)?.message == #"platform must be one of "ios", "android""#
        }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(UserRole.self, from: Data(#""intern""#.utf8)) }
    }

    /// `allCases` lists the known values only (the OpenAPI document's enums), each of which
    /// reads back as itself; a raw value round-trips through `init(rawValue:)`, known or not.
    @Test func knownValuesAndRawValues() throws {
        func check<E: WireEnum>(_ type: E.Type) {
            #expect(E.allCases.allSatisfy { $0.isKnown })
            #expect(Set(E.allCases.map(\.rawValue)).count == E.allCases.count)
            for value in E.allCases { #expect(E(rawValue: value.rawValue) == value && E(known: value.rawValue) == value) }
            #expect(E(rawValue: "never_seen") == .unknown("never_seen") && E(known: "never_seen") == nil)
            #expect(!E.allCases.contains(.unknown("never_seen")))
        }
        check(UserRole.self)
        check(CompanyStatus.self)
        check(ActivityEventType.self)
        check(TwoFactorMethod.self)
        check(PushPlatform.self)
        check(PushAppType.self)
        #expect(UserRole.allCases.map(\.rawValue) == ["master_admin", "admin", "senior_engineer", "engineer", "office"])
        #expect(CompanyStatus.allCases.map(\.rawValue) == ["active", "pending_approval", "suspended"])
        #expect(TwoFactorMethod.allCases.map(\.rawValue) == ["email", "totp", "recovery_code", "passkey"])
        #expect(try Self.encoded([UserRole.unknown("intern"), .seniorEngineer]) == #"["intern","senior_engineer"]"#)
    }

    /// What is wrong in an answer is still reported, with where it is.
    @Test func aMissingRequiredFieldIsStillAnError() throws {
        #expect(throws: DecodingError.self) {
            try Self.decode(StaffUser.self, #"{"id": "u1", "email": "a@b.test", "role": "admin", "is_active": 1}"#)
        }
        #expect(throws: DecodingError.self) { try Self.decode(RefreshResponse.self, #"{"token": "t", "refreshToken": "r", "expiresIn": "soon"}"#) }
        #expect(throws: DecodingError.self) { try Self.decode(Company.self, #"{"id": "c1", "name": null, "status": "active"}"#) }
    }
}
