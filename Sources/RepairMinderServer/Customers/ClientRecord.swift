import RepairMinderModels

/// A `clients` row: a customer of one company.
struct ClientRecord: Decodable, Sendable {
    var id: String
    var email: String
    var firstName: String?
    var lastName: String?
    var companyId: String

    var wire: CustomerClient {
        let fullName = [firstName, lastName].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        return CustomerClient(
            id: id, firstName: firstName, lastName: lastName, email: email, name: fullName.isEmpty ? email : fullName)
    }
}
