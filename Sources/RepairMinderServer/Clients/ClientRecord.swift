import RepairMinderModels

/// A `clients` row: a customer of one company.
struct ClientRecord: Decodable, Sendable {
    var id: String
    var email: String
    var firstName: String?
    var lastName: String?
    var companyId: String
    var phone: String?
    var notes: String?
    var portalEnabled: Int?
    var lastPortalLogin: Double?
    var createdAt: Double
    var updatedAt: Double
    var deletedAt: Double?

    /// Whether the customer may sign in to the shop's portal (docs/API.md §14): not deleted, not switched off.
    var mayUsePortal: Bool { deletedAt == nil && (portalEnabled ?? 1) != 0 }

    /// The customer's own view (docs/API.md §3).
    var wire: CustomerClient {
        CustomerClient(
            id: id, firstName: firstName, lastName: lastName, email: email,
            name: CustomerClient.displayName(firstName: firstName, lastName: lastName, email: email))
    }

    /// The shop's view (docs/API.md §14).
    var shopWire: ShopClient {
        ShopClient(
            id: id, email: email, firstName: firstName, lastName: lastName, phone: phone, notes: notes,
            portalEnabled: (portalEnabled ?? 1) != 0, lastPortalLogin: lastPortalLogin.map(Timestamp.iso8601),
            createdAt: Timestamp.iso8601(createdAt), updatedAt: Timestamp.iso8601(updatedAt))
    }
}

/// The forms of a client's fields that search and uniqueness read (docs/API.md §14).
enum ClientKeys {
    /// Lowercased for ASCII letters only, as SQLite's `lower()` does, so both engines agree.
    static func key(_ text: String?) -> String? {
        text.map { String(String.UnicodeScalarView($0.unicodeScalars.map { ("A"..."Z").contains($0) ? Unicode.Scalar(UInt8($0.value) + 32) : $0 })) }
    }

    /// The display name's key, which `sort=name` orders by.
    static func name(firstName: String?, lastName: String?, email: String) -> String? {
        key(CustomerClient.displayName(firstName: firstName, lastName: lastName, email: email))
    }

    /// A phone number's digits.
    static func digits(_ phone: String?) -> String? {
        phone.map { String($0.filter(\.isASCII).filter(\.isNumber)) }
    }

    /// The smallest string above every string that starts with `prefix`: search reads
    /// `key >= prefix AND key < upperBound(prefix)`, which a plain index serves on both engines.
    static func upperBound(_ prefix: String) -> String {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            if let next = Unicode.Scalar(last.value + 1) { return String(String.UnicodeScalarView(scalars + [next])) }
        }
        // Only maximal scalars: nothing sorts above them but longer strings of them.
        return prefix + "\u{10FFFF}"
    }
}
