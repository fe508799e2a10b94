/// `POST /api/customer/auth/request-magic-link` body (docs/API.md §3.1).
public struct CustomerMagicLinkRequest: Codable, Sendable, Equatable {
    public var email: String
    public var companyId: String?
    public init(email: String, companyId: String? = nil) {
        self.email = email
        self.companyId = companyId
    }
}

extension CustomerMagicLinkRequest: WireRequest {
    public static var unknownFields: UnknownFields { .tolerated }
    public static let fields: [RequestField<Self>] = [
        .string("email", \.email, FieldRules.email),
        .optional("companyId", \.companyId, FieldRules.identifier),
    ]
    public static var example: CustomerMagicLinkRequest {
        CustomerMagicLinkRequest(email: WireExample.customerEmail, companyId: WireExample.companyId)
    }
}

/// `POST /api/customer/auth/verify-code` body (docs/API.md §3.2).
public struct CustomerVerifyCodeRequest: Codable, Sendable, Equatable {
    public var email: String
    public var code: String
    public var companyId: String?
    public init(email: String, code: String, companyId: String? = nil) {
        self.email = email
        self.code = code
        self.companyId = companyId
    }
}

extension CustomerVerifyCodeRequest: WireRequest {
    public static var unknownFields: UnknownFields { .tolerated }
    public static let fields: [RequestField<Self>] = [
        .string("email", \.email, FieldRules.email),
        .string("code", \.code, FieldRules.sixDigitCode),
        .optional("companyId", \.companyId, FieldRules.identifier),
    ]
    public static var example: CustomerVerifyCodeRequest {
        CustomerVerifyCodeRequest(email: WireExample.customerEmail, code: WireExample.code)
    }
}

/// The customer `client` object: camelCase (docs/API.md §3.2).
public struct CustomerClient: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var firstName: String?
    public var lastName: String?
    public var email: String
    /// "First Last", or the email when there is no name.
    public var name: String
    public init(id: String, firstName: String?, lastName: String?, email: String, name: String) {
        self.id = id
        self.firstName = firstName
        self.lastName = lastName
        self.email = email
        self.name = name
    }

    /// "First Last" from the parts there are, or `email` when there are none (the server's rule).
    public static func displayName(firstName: String?, lastName: String?, email: String) -> String {
        let fullName = [firstName, lastName].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        return fullName.isEmpty ? email : fullName
    }

    private enum CodingKeys: String, CodingKey { case id, firstName, lastName, email, name }

    /// A `null` or absent `name` (seed 000 declares it optional) becomes `displayName`: the app
    /// always has something to show, and one client without a name cannot fail a sign-in.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        firstName = try c.decodeIfPresent(String.self, forKey: .firstName)
        lastName = try c.decodeIfPresent(String.self, forKey: .lastName)
        email = try c.decode(String.self, forKey: .email)
        name = try c.decodeIfPresent(String.self, forKey: .name)
            ?? Self.displayName(firstName: firstName, lastName: lastName, email: email)
    }
}

extension CustomerClient: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("id", \.id, .nonEmptyText),
        .init("firstName", \.firstName, .nullable(.text)),
        .init("lastName", \.lastName, .nullable(.text)),
        .init("email", \.email, .email),
        .init("name", \.name, .string(.init(description: "\"First Last\", or the email when there is no name"))),
    ]
    public static var schema: JSONSchema { .object(fields, description: "A customer of a company") }
    public static var example: CustomerClient {
        CustomerClient(
            id: WireExample.clientId, firstName: "Jane", lastName: "Customer", email: WireExample.customerEmail,
            name: "Jane Customer")
    }
}

/// The customer-side `company` object: camelCase, `logoUrl` null without a logo (docs/API.md §3.2).
public struct CustomerCompany: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var name: String
    public var logoUrl: String?
    public init(id: String, name: String, logoUrl: String?) {
        self.id = id
        self.name = name
        self.logoUrl = logoUrl
    }
}

extension CustomerCompany: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("id", \.id, .nonEmptyText),
        .init("name", \.name, .nonEmptyText),
        .init("logoUrl", \.logoUrl, .nullable(.url)),
    ]
    public static var schema: JSONSchema { .object(fields, description: "A repair shop, as its customers (and the people it invites) see it") }
    public static var example: CustomerCompany {
        CustomerCompany(id: WireExample.companyId, name: "Acme Repairs", logoUrl: WireExample.logoURL)
    }
}

/// A completed customer sign-in (docs/API.md §3.2). Customers get no refresh token.
public struct CustomerTokenResponse: Codable, Sendable, Equatable {
    public var token: String
    public var client: CustomerClient
    public var company: CustomerCompany
    public init(token: String, client: CustomerClient, company: CustomerCompany) {
        self.token = token
        self.client = client
        self.company = company
    }
}

extension CustomerTokenResponse: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("token", \.token, .jwt),
        .init("client", \.client, .ref(CustomerClient.self)),
        .init("company", \.company, .ref(CustomerCompany.self)),
    ]
    public static var schema: JSONSchema {
        .object(fields, description: "A completed customer sign-in; customers get no refresh token")
    }
    public static var example: CustomerTokenResponse {
        CustomerTokenResponse(token: WireExample.accessToken, client: .example, company: .example)
    }
}

/// The answer when the email is a client of several companies and none was chosen: call
/// verify-code again with the same code and one `companyId` (docs/API.md §3.2).
public struct CompanySelectionResponse: Codable, Sendable, Equatable {
    public var requiresCompanySelection: Bool
    public var companies: [CustomerCompany]
    public var email: String
    public var code: String
    public init(companies: [CustomerCompany], email: String, code: String) {
        self.requiresCompanySelection = true
        self.companies = companies
        self.email = email
        self.code = code
    }
}

extension CompanySelectionResponse: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("requiresCompanySelection", \.requiresCompanySelection, .boolean),
        .init("companies", \.companies, .array(.ref(CustomerCompany.self))),
        .init("email", \.email, .email),
        .init("code", \.code, .sixDigitCode),
    ]
    public static var schema: JSONSchema {
        .object(fields, description: "The email is a client of several companies: verify again with the same code and a companyId")
    }
    public static var example: CompanySelectionResponse {
        CompanySelectionResponse(
            companies: [
                .example, CustomerCompany(id: WireExample.otherCompanyId, name: "Fixit Phones", logoUrl: nil),
            ],
            email: WireExample.customerEmail, code: WireExample.code)
    }
}

/// `GET /api/customer/auth/me`'s answer (docs/API.md §3.3).
public struct CustomerMeResponse: Codable, Sendable, Equatable {
    public var client: CustomerClient
    public var company: CustomerCompany
    public init(client: CustomerClient, company: CustomerCompany) {
        self.client = client
        self.company = company
    }
}

extension CustomerMeResponse: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("client", \.client, .ref(CustomerClient.self)),
        .init("company", \.company, .ref(CustomerCompany.self)),
    ]
    public static var schema: JSONSchema { .object(fields) }
    public static var example: CustomerMeResponse { CustomerMeResponse(client: .example, company: .example) }
}

/// The claims of a customer token (docs/API.md §3.2, seed 000).
public struct CustomerTokenClaims: Codable, Sendable, Equatable {
    /// Always `"customer"`: what tells a customer token from a staff one.
    public var type: String
    public var clientId: String
    public var companyId: String
    public var email: String
    /// Always `"customer_portal"`.
    public var scope: String
    /// Issued at, seconds since 1970 (the seed's own claim; `iat` carries the same).
    public var issuedAt: Int
    public var sessionId: String
    public var iat: Int
    public var exp: Int

    public init(clientId: String, companyId: String, email: String, sessionId: String, issuedAt: Int, expiresAt: Int) {
        type = "customer"
        scope = "customer_portal"
        self.clientId = clientId
        self.companyId = companyId
        self.email = email
        self.sessionId = sessionId
        self.issuedAt = issuedAt
        iat = issuedAt
        exp = expiresAt
    }
}

/// `POST /api/customer/auth/verify-code`'s answer: signed in, or a company to choose first.
public enum CustomerVerifyCodeResponse: Codable, Sendable, Equatable {
    case signedIn(CustomerTokenResponse)
    case selectCompany(CompanySelectionResponse)

    private enum CodingKeys: String, CodingKey { case requiresCompanySelection }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if try container.decodeIfPresent(Bool.self, forKey: .requiresCompanySelection) == true {
            self = .selectCompany(try CompanySelectionResponse(from: decoder))
        } else {
            self = .signedIn(try CustomerTokenResponse(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .signedIn(let response): try response.encode(to: encoder)
        case .selectCompany(let selection): try selection.encode(to: encoder)
        }
    }
}

extension CustomerVerifyCodeResponse: WireType {
    public static var schema: JSONSchema {
        .oneOf([.ref(CustomerTokenResponse.self), .ref(CompanySelectionResponse.self)])
    }
    public static var example: CustomerVerifyCodeResponse { .signedIn(.example) }
}
