/// `POST /api/auth/register` body (docs/API.md §9.1): a new shop and its first admin.
public struct RegisterRequest: Codable, Sendable, Equatable {
    public var companyName: String
    public var firstName: String
    public var lastName: String
    public var email: String
    public var password: String
    public init(companyName: String, firstName: String, lastName: String, email: String, password: String) {
        self.companyName = companyName
        self.firstName = firstName
        self.lastName = lastName
        self.email = email
        self.password = password
    }
}

/// `POST /api/auth/register/verify` body (docs/API.md §9.1): the emailed code finishes registration.
public struct RegisterVerifyRequest: Codable, Sendable, Equatable {
    public var email: String
    public var code: String
    public init(email: String, code: String) {
        self.email = email
        self.code = code
    }
}
