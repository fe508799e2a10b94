import Foundation
import SQLKit
import RepairMinderModels

/// A `users` row.
struct UserRecord: Decodable, Sendable {
    var id: String
    var email: String
    var firstName: String?
    var lastName: String?
    var companyId: String
    var role: String
    var phiAccessLevel: String?
    var dataClassification: String?
    var isActive: Int
    var archived: Int
    var magicLinkEnabled: Int
    var passwordHash: String?
    var lastLogin: Double?
    var createdAt: Double
    var updatedAt: Double

    var canSignIn: Bool { isActive != 0 && archived == 0 }

    /// Refuses a user who may not sign in (docs/API.md §2.1): deactivated, then archived.
    func checkCanSignIn() throws(APIError) {
        guard isActive != 0 else { throw APIError.accountDeactivated }
        guard archived == 0 else { throw APIError.accountArchived }
    }

    /// The column names, spelled out: decoding with them needs no snake-case conversion per
    /// key (`SQLRowDecoder()`), which the refresh path would otherwise pay for every column.
    enum CodingKeys: String, CodingKey {
        case id, email, role, archived
        case firstName = "first_name", lastName = "last_name", companyId = "company_id"
        case phiAccessLevel = "phi_access_level", dataClassification = "data_classification"
        case isActive = "is_active", magicLinkEnabled = "magic_link_enabled", passwordHash = "password_hash"
        case lastLogin = "last_login", createdAt = "created_at", updatedAt = "updated_at"
    }

    /// The role as stored. The server writes known roles only; one it does not know (a damaged
    /// row) stays `.unknown`, which grants no permission (`UserRole.permissions`): failing closed,
    /// where a fallback to a known role would grant that role's.
    var userRole: UserRole { UserRole(rawValue: role) }

    /// The wire object of docs/API.md §2.3.
    func wire(companyStatus: CompanyStatus) -> StaffUser {
        StaffUser(
            id: id, email: email, firstName: firstName, lastName: lastName, companyId: companyId,
            role: userRole, phiAccessLevel: phiAccessLevel,
            dataClassification: dataClassification, isActive: isActive != 0, magicLinkEnabled: magicLinkEnabled != 0,
            companyStatus: companyStatus.rawValue, lastLogin: lastLogin.map(Timestamp.iso8601),
            createdAt: Timestamp.iso8601(createdAt), updatedAt: Timestamp.iso8601(updatedAt)
        )
    }
}

/// A `companies` row.
struct CompanyRecord: Decodable, Sendable {
    var id: String
    var name: String
    var status: String
    var currencyCode: String?
    var vatNumber: String?
    var logoUrl: String?
    var vatRateRepair: String?
    var vatRateDeviceSale: String?
    var vatRateAccessory: String?
    var vatRateDevicePurchase: String?

    /// The columns it decodes from, for queries that name them.
    static let columns = SQLQueryString(
        """
        id, name, status, currency_code, vat_number, logo_url, vat_rate_repair, vat_rate_device_sale, vat_rate_accessory,
        vat_rate_device_purchase
        """)

    /// Unknown statuses are treated as suspended: failing closed keeps a damaged row quarantined.
    var companyStatus: CompanyStatus { CompanyStatus(known: status) ?? .suspended }

    /// The column names, spelled out (as `UserRecord`'s): the bearer check decodes a company on
    /// every request, and converting each key from snake case cost more than the query.
    enum CodingKeys: String, CodingKey {
        case id, name, status
        case currencyCode = "currency_code", vatNumber = "vat_number", logoUrl = "logo_url"
        case vatRateRepair = "vat_rate_repair", vatRateDeviceSale = "vat_rate_device_sale"
        case vatRateAccessory = "vat_rate_accessory", vatRateDevicePurchase = "vat_rate_device_purchase"
    }

    /// The staff-side wire object; `serverURL` turns a stored logo file into its public URL.
    func wire(serverURL: String) -> Company {
        Company(
            id: id, name: name, status: companyStatus, currencyCode: currencyCode, vatNumber: vatNumber,
            logoUrl: CompanyLogo.publicURL(for: self, serverURL: serverURL), vatRateRepair: vatRateRepair, vatRateDeviceSale: vatRateDeviceSale,
            vatRateAccessory: vatRateAccessory, vatRateDevicePurchase: vatRateDevicePurchase
        )
    }
}

extension CompanyRecord {
    /// The customer-side wire object.
    func customerWire(serverURL: String) -> CustomerCompany {
        CustomerCompany(id: id, name: name, logoUrl: CompanyLogo.publicURL(for: self, serverURL: serverURL))
    }
}

/// Conversions between stored times (seconds since 1970) and the wire's ISO 8601.
enum Timestamp {
    static func iso8601(_ seconds: Double) -> String {
        Date(timeIntervalSince1970: seconds).formatted(.iso8601)
    }

    /// With milliseconds (`2026-02-15T10:00:00.000Z`), as REKI's answers spell times (seed 002).
    static func iso8601Milliseconds(_ seconds: Double) -> String {
        Date(timeIntervalSince1970: seconds).formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// The instant an `iso8601` string names, if it is one.
    static func date(iso8601 text: String) -> Date? {
        try? Date(text, strategy: .iso8601)
    }
}
