import RepairMinderModels

/// A `clients` row: a customer of one company.
struct ClientRecord: Decodable, Sendable {
    var id: String
    var email: String
    var firstName: String?
    var lastName: String?
    var companyId: String

    var wire: CustomerClient {
        CustomerClient(
            id: id, firstName: firstName, lastName: lastName, email: email,
            name: CustomerClient.displayName(firstName: firstName, lastName: lastName, email: email))
    }
}
