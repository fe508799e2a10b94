import Foundation
import RepairMinderModels

/// Where the SDK keeps credentials: Keychain on Apple platforms, a private file elsewhere,
/// memory in tests. Implementations store opaque bytes under a few fixed keys; a read error
/// is thrown, never mistaken for "signed out".
///
/// A store that can have the OS guard an item (the Keychain, with `SecAccessControl`
/// `.biometryCurrentSet`) says so with `supportsBiometricProtection` and implements
/// `write(_:for:protection:)`; reading such an item shows the system's Face ID or Touch ID
/// prompt and throws `CredentialAccessError` when the person cancels or fails it.
public protocol CredentialStore: Sendable {
    /// The item's bytes; nil when there is none. Throws when the store cannot be read (a
    /// locked Keychain), and for a guarded item whose prompt was cancelled or failed.
    func read(_ key: CredentialKey) throws -> Data?
    /// Stores `data` under `key` as an ordinary item (readable after the first unlock).
    func write(_ data: Data, for key: CredentialKey) throws
    /// Deletes the item under `key` (none: nothing happens). Never asks for biometrics.
    func delete(_ key: CredentialKey) throws
    /// Stores `data` under `key` with `protection`. The default stores `.standard` items with
    /// `write(_:for:)` and refuses `.biometryCurrentSet` (`CredentialAccessError.protectionUnavailable`).
    func write(_ data: Data, for key: CredentialKey, protection: CredentialProtection) throws
    /// Whether an item is stored under `key`, without reading it: never shows a prompt. The
    /// default reads it (right for stores that have no guarded items).
    func contains(_ key: CredentialKey) throws -> Bool
    /// Whether `write(_:for:protection:)` can store `.biometryCurrentSet` items (false by default).
    var supportsBiometricProtection: Bool { get }
}

extension CredentialStore {
    public func write(_ data: Data, for key: CredentialKey, protection: CredentialProtection) throws {
        guard protection == .standard else { throw CredentialAccessError.protectionUnavailable }
        try write(data, for: key)
    }

    public func contains(_ key: CredentialKey) throws -> Bool { try read(key) != nil }

    public var supportsBiometricProtection: Bool { false }
}

/// The items the SDK stores.
public enum CredentialKey: String, Sendable, CaseIterable {
    case staff = "staff-credentials"
    case customer = "customer-credentials"
    case role = "app-role"
    /// A REKI session (`REKIClient`).
    case reki = "reki-credentials"
    /// The push token registered for the staff session, so a later launch unregisters it at logout.
    case staffDeviceToken = "staff-device-token"
    /// The push token registered for the customer session.
    case customerDeviceToken = "customer-device-token"
    /// The staff session's refresh token under `.biometryCurrentSet` (`BiometricLock` with
    /// `guardsCredentials`): the access token is then in memory only.
    case staffGuarded = "staff-credentials-guarded"
    /// The other of the two guarded items, used in turn (`GuardedItems`).
    case staffGuardedSpare = "staff-credentials-guarded-spare"
    /// Which of the two guarded items holds the session: an ordinary item, readable without a prompt.
    case staffGuardedCurrent = "staff-credentials-guarded-current"
    /// The biometric lock's setting (`BiometricLockSetting`).
    case biometricLock = "biometric-lock"
    /// The last signed-in staff member and company, for an offline launch.
    case staffProfile = "staff-profile"
    /// The last signed-in customer and shop, for an offline launch.
    case customerProfile = "customer-profile"
}

/// A signed-in staff member's tokens.
public typealias StaffCredentials = SessionCredentials

/// The tokens of a session renewed by refresh: a staff member's, or a REKI user's.
public struct SessionCredentials: Codable, Sendable, Equatable {
    public var accessToken: String
    public var refreshToken: String
    /// When the access token expires (from its `exp` claim, or `expiresIn`).
    public var accessTokenExpiresAt: Date
    /// What the shop requires and the user has not enrolled, as the sign-in or refresh that
    /// issued these tokens said (docs/API.md §13.3); nil when nothing (and for REKI).
    public var enrolmentRequired: EnrolmentRequirement?
    /// That answer's `scope`: `"enrol"` (`TokenScope.enrolment`) for a session restricted to
    /// enrolment; nil for full access.
    public var scope: String?

    public init(
        accessToken: String, refreshToken: String, accessTokenExpiresAt: Date, enrolmentRequired: EnrolmentRequirement? = nil,
        scope: String? = nil
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.enrolmentRequired = enrolmentRequired
        self.scope = scope
    }

    /// Whether these tokens are good only for enrolment (docs/API.md §13.3).
    public var isEnrolmentOnly: Bool { scope == TokenScope.enrolment }
}

/// A signed-in customer's token (customers have no refresh token).
public struct CustomerCredentials: Codable, Sendable, Equatable {
    public var token: String
    public var expiresAt: Date?
    public var companyId: String?

    public init(token: String, expiresAt: Date?, companyId: String?) {
        self.token = token
        self.expiresAt = expiresAt
        self.companyId = companyId
    }
}

/// Which app a person chose at launch: staff or customer (seed 003's role selection).
public enum AppRole: String, Codable, Sendable, CaseIterable {
    case staff
    case customer

    /// Where the push token registered for this role's session is kept.
    var deviceTokenKey: CredentialKey {
        switch self {
        case .staff: .staffDeviceToken
        case .customer: .customerDeviceToken
        }
    }
}

extension CredentialStore {
    public func staffCredentials() throws -> StaffCredentials? { try sessionCredentials(.staff) }
    public func saveStaff(_ credentials: StaffCredentials) throws { try saveSession(credentials, as: .staff) }
    public func rekiCredentials() throws -> SessionCredentials? { try sessionCredentials(.reki) }
    public func saveREKI(_ credentials: SessionCredentials) throws { try saveSession(credentials, as: .reki) }
    /// The refreshable session stored under `key` (`.staff`, `.reki`).
    func sessionCredentials(_ key: CredentialKey) throws -> SessionCredentials? { try decode(SessionCredentials.self, key) }
    func saveSession(_ credentials: SessionCredentials, as key: CredentialKey) throws {
        try write(JSONEncoder().encode(credentials), for: key)
    }
    public func customerCredentials() throws -> CustomerCredentials? { try decode(CustomerCredentials.self, .customer) }
    public func saveCustomer(_ credentials: CustomerCredentials) throws {
        try write(JSONEncoder().encode(credentials), for: .customer)
    }
    public func role() throws -> AppRole? { try read(.role).flatMap { AppRole(rawValue: String(decoding: $0, as: UTF8.self)) } }
    public func saveRole(_ role: AppRole) throws { try write(Data(role.rawValue.utf8), for: .role) }
    /// The push token registered for `role`'s session, kept with its credentials: the app may
    /// be relaunched before the logout that must unregister it.
    public func registeredDeviceToken(for role: AppRole) throws -> String? {
        try read(role.deviceTokenKey).map { String(decoding: $0, as: UTF8.self) }
    }
    /// Records (nil: forgets) the push token registered for `role`'s session.
    public func saveRegisteredDeviceToken(_ token: String?, for role: AppRole) throws {
        if let token { try write(Data(token.utf8), for: role.deviceTokenKey) } else { try delete(role.deviceTokenKey) }
    }

    func decode<T: Decodable>(_ type: T.Type, _ key: CredentialKey) throws -> T? {
        guard let data = try read(key) else { return nil }
        // What a newer server said (an enrolment method this version does not know) was kept
        // as it came: read back as it was decoded then, never refused (docs/API.md §1).
        let decoder = JSONDecoder()
        decoder.userInfo[.acceptsUnknownWireValues] = true
        return try decoder.decode(type, from: data)
    }
}

/// Credentials in memory only: for tests and previews.
public final class InMemoryCredentialStore: CredentialStore, @unchecked Sendable {
    private let lock = NSLock()
    private var items: [CredentialKey: Data] = [:]

    public init() {}

    public func read(_ key: CredentialKey) throws -> Data? { lock.withLock { items[key] } }
    public func write(_ data: Data, for key: CredentialKey) throws { lock.withLock { items[key] = data } }
    public func delete(_ key: CredentialKey) throws { _ = lock.withLock { items.removeValue(forKey: key) } }
}
