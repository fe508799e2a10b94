import Crypto
import Foundation

/// A fixtures file for `repairminder seed` (docs/FIXTURES.md, which gives each optional field's default).
///
/// Each type names its keys in a `CaseIterable` `CodingKeys`: `FixtureFile.read(_:)` refuses
/// any other key, so a misspelt optional field (`"isActve": false`) is an error, not a default.
public struct FixtureFile: Codable, Sendable {
    public struct Company: Codable, Sendable {
        public var name: String
        public var status: String?
        public var currencyCode: String?
        public var vatNumber: String?
        public var logoUrl: String?
        public var vatRateRepair: String?
        public var vatRateDeviceSale: String?
        public var vatRateAccessory: String?
        public var vatRateDevicePurchase: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case name, status, currencyCode, vatNumber, logoUrl, vatRateRepair, vatRateDeviceSale, vatRateAccessory
            case vatRateDevicePurchase
        }
    }

    public struct User: Codable, Sendable {
        public var email: String
        /// Omitted: a user without a password (magic link only).
        public var password: String?
        public var firstName: String?
        public var lastName: String?
        /// A company of the same file, or an existing one, by name or id.
        public var company: String
        public var role: String?
        public var isActive: Bool?
        public var archived: Bool?
        public var magicLinkEnabled: Bool?
        public var phiAccessLevel: String?
        public var dataClassification: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case email, password, firstName, lastName, company, role, isActive, archived, magicLinkEnabled, phiAccessLevel
            case dataClassification
        }
    }

    public struct Client: Codable, Sendable {
        public var email: String
        public var firstName: String?
        public var lastName: String?
        public var company: String

        enum CodingKeys: String, CodingKey, CaseIterable {
            case email, firstName, lastName, company
        }
    }

    public var companies: [Company]?
    public var users: [User]?
    public var clients: [Client]?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case companies, users, clients
    }
}

extension FixtureFile {
    /// Copies each logo file (a path relative to `directory`, or absolute) into
    /// `<dataDirectory>/logos/`, named by its content, and points the company at the copy: the
    /// server serves logo files only from inside its data directory. URLs are left alone.
    public mutating func importLogos(from directory: URL, into dataDirectory: String) throws {
        for index in (companies ?? []).indices {
            guard let logo = companies?[index].logoUrl, !logo.isEmpty, !CompanyLogo.isRemote(logo) else { continue }
            let source = logo.hasPrefix("/") ? URL(fileURLWithPath: logo) : directory.appendingPathComponent(logo)
            guard CompanyLogo.contentType(forPath: source.path) != nil else {
                throw SettingsError("logo \(logo): must be a .png, .jpg, .gif, .webp or .svg file")
            }
            let data: Data
            do {
                data = try Data(contentsOf: source)
            } catch {
                throw SettingsError("cannot read logo \(source.path): \(error.localizedDescription)")
            }
            let folder = URL(fileURLWithPath: dataDirectory).appendingPathComponent("logos")
            try DataDirectory.create(folder.path)
            let name = SHA256.hash(data: data).hexString.prefix(32) + "." + source.pathExtension.lowercased()
            let copy = folder.appendingPathComponent(String(name)).standardizedFileURL
            if !FileManager.default.fileExists(atPath: copy.path) { try data.write(to: copy, options: .atomic) }
            companies?[index].logoUrl = copy.path
        }
    }
}

/// The ids of what a fixtures file created or updated, printed by `repairminder seed` as JSON.
public struct FixtureIDs: Codable, Sendable, Equatable {
    /// Company name → id.
    public var companies: [String: String] = [:]
    /// User email → id.
    public var users: [String: String] = [:]
    /// "email@company name" → client id.
    public var clients: [String: String] = [:]
}
