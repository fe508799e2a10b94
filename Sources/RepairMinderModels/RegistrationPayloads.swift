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

extension RegisterRequest: WireRequest {
    public static var unknownFields: UnknownFields { .tolerated }
    public static let fields: [RequestField<Self>] = [
        .string("companyName", \.companyName, FieldRules.text(maxLength: 200, description: "The shop's name")),
        .string("firstName", \.firstName, FieldRules.personName),
        .string("lastName", \.lastName, FieldRules.personName),
        .string("email", \.email, FieldRules.email),
        .string("password", \.password, FieldRules.newPassword),
    ]
    public static var example: RegisterRequest {
        RegisterRequest(
            companyName: "Fixit Phones", firstName: "Ada", lastName: "Lovelace", email: "ada@fixit.test",
            password: "violet kettle 1987 drum")
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

extension RegisterVerifyRequest: WireRequest {
    public static var unknownFields: UnknownFields { .tolerated }
    public static let fields: [RequestField<Self>] = [
        .string("email", \.email, FieldRules.email),
        .string("code", \.code, FieldRules.sixDigitCode),
    ]
    public static var example: RegisterVerifyRequest { RegisterVerifyRequest(email: "ada@fixit.test", code: WireExample.code) }
}
