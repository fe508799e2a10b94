/// `DELETE /api/auth/me` body (docs/API.md §9.5). `password` is required when the user has
/// one; without one, the session must have signed in within the last 10 minutes. `closeShop`
/// confirms that the shop's only active member closes the shop with their account.
public struct DeleteAccountRequest: Codable, Sendable, Equatable {
    public var password: String?
    public var closeShop: Bool?
    public init(password: String?, closeShop: Bool? = nil) {
        self.password = password
        self.closeShop = closeShop
    }
}

extension DeleteAccountRequest: WireRequest {
    public static let fields: [RequestField<Self>] = [
        .optional("password", \.password, FieldRules.secret.described("Required when the user has a password")),
        .decoded("closeShop", .nullable(.boolean), required: false),
    ]
    public static var example: DeleteAccountRequest {
        // The demo admin's password: trying the example (schemathesis does, signed in as the demo
        // admin, after every other operation) reaches the shop's rule, 409 LAST_ADMIN (Acme's
        // other members are not admins), instead of failing at the password every time.
        DeleteAccountRequest(password: "correct horse battery", closeShop: nil)
    }
}

/// `GET /api/auth/me/export` (docs/API.md §9.5): everything the server keeps about the
/// signed-in staff member, as JSON (GDPR's right of access). Never holds a password hash,
/// secret, code or token.
public struct AccountExport: Codable, Sendable, Equatable {
    public var exportedAt: String
    public var user: StaffUser
    public var company: Company
    public var hasPassword: Bool
    public var authenticatorApp: TOTPStatusResponse
    public var passkeys: [Passkey]
    public var sessions: [SessionInfo]
    public var pushDevices: [RegisteredDeviceToken]
    public var pushPreferences: PushPreferences
    /// Every event of the account's audit log, newest first (§9.4's types).
    public var activity: [ActivityEvent]

    public init(
        exportedAt: String, user: StaffUser, company: Company, hasPassword: Bool, authenticatorApp: TOTPStatusResponse,
        passkeys: [Passkey], sessions: [SessionInfo], pushDevices: [RegisteredDeviceToken], pushPreferences: PushPreferences,
        activity: [ActivityEvent]
    ) {
        self.exportedAt = exportedAt
        self.user = user
        self.company = company
        self.hasPassword = hasPassword
        self.authenticatorApp = authenticatorApp
        self.passkeys = passkeys
        self.sessions = sessions
        self.pushDevices = pushDevices
        self.pushPreferences = pushPreferences
        self.activity = activity
    }
}

extension AccountExport: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("exportedAt", \.exportedAt, .timestamp),
        .init("user", \.user, .ref(StaffUser.self)),
        .init("company", \.company, .ref(Company.self)),
        .init("hasPassword", \.hasPassword, .boolean),
        .init("authenticatorApp", \.authenticatorApp, .ref(TOTPStatusResponse.self)),
        .init("passkeys", \.passkeys, .array(.ref(Passkey.self))),
        .init("sessions", \.sessions, .array(.ref(SessionInfo.self))),
        .init("pushDevices", \.pushDevices, .array(.ref(RegisteredDeviceToken.self))),
        .init("pushPreferences", \.pushPreferences, .ref(PushPreferences.self)),
        .init("activity", \.activity, .array(.ref(ActivityEvent.self))),
    ]
    public static var schema: JSONSchema { .object(fields, description: "Everything the server keeps about the signed-in staff member") }
    public static var example: AccountExport {
        AccountExport(
            exportedAt: WireExample.timestamp, user: .example, company: .example, hasPassword: true,
            authenticatorApp: .example, passkeys: [.example], sessions: [.example], pushDevices: [.example],
            pushPreferences: .example, activity: [.example])
    }
}
