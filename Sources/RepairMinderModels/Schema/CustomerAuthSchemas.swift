/// Passwordless customer sign-in (docs/API.md §3): camelCase objects.

extension CustomerMagicLinkRequest: WireRequest {
    public static let fields: [RequestField<Self>] = [
        .string("email", \.email, FieldRules.email),
        .optional("companyId", \.companyId, FieldRules.identifier),
    ]
    public static var example: CustomerMagicLinkRequest {
        CustomerMagicLinkRequest(email: WireExample.customerEmail, companyId: WireExample.companyId)
    }
}

extension CustomerVerifyCodeRequest: WireRequest {
    public static let fields: [RequestField<Self>] = [
        .string("email", \.email, FieldRules.email),
        .string("code", \.code, FieldRules.sixDigitCode),
        .optional("companyId", \.companyId, FieldRules.identifier),
    ]
    public static var example: CustomerVerifyCodeRequest {
        CustomerVerifyCodeRequest(email: WireExample.customerEmail, code: WireExample.code)
    }
}

extension CustomerClient: WireType {
    public static var schema: JSONSchema {
        .object(
            [
                .init("id", .nonEmptyText),
                .init("firstName", .nullable(.text)),
                .init("lastName", .nullable(.text)),
                .init("email", .email),
                .init("name", .string(.init(description: "\"First Last\", or the email when there is no name"))),
            ],
            description: "A customer of a company")
    }
    public static var example: CustomerClient {
        CustomerClient(
            id: WireExample.clientId, firstName: "Jane", lastName: "Customer", email: WireExample.customerEmail,
            name: "Jane Customer")
    }
}

extension CustomerCompany: WireType {
    public static var schema: JSONSchema {
        .object(
            [
                .init("id", .nonEmptyText),
                .init("name", .nonEmptyText),
                .init("logoUrl", .nullable(.url)),
            ],
            description: "A repair shop, as its customers see it")
    }
    public static var example: CustomerCompany {
        CustomerCompany(id: WireExample.companyId, name: "Acme Repairs", logoUrl: WireExample.logoURL)
    }
}

extension CustomerTokenResponse: WireType {
    public static var schema: JSONSchema {
        .object(
            [
                .init("token", .jwt),
                .init("client", .ref(CustomerClient.self)),
                .init("company", .ref(CustomerCompany.self)),
            ],
            description: "A completed customer sign-in; customers get no refresh token")
    }
    public static var example: CustomerTokenResponse {
        CustomerTokenResponse(token: WireExample.accessToken, client: .example, company: .example)
    }
}

extension CompanySelectionResponse: WireType {
    public static var schema: JSONSchema {
        .object(
            [
                .init("requiresCompanySelection", .boolean),
                .init("companies", .array(.ref(CustomerCompany.self))),
                .init("email", .email),
                .init("code", .sixDigitCode),
            ],
            description: "The email is a client of several companies: verify again with the same code and a companyId")
    }
    public static var example: CompanySelectionResponse {
        CompanySelectionResponse(
            companies: [
                .example, CustomerCompany(id: WireExample.otherCompanyId, name: "Fixit Phones", logoUrl: nil),
            ],
            email: WireExample.customerEmail, code: WireExample.code)
    }
}

extension CustomerVerifyCodeResponse: WireType {
    public static var schema: JSONSchema {
        .oneOf([.ref(CustomerTokenResponse.self), .ref(CompanySelectionResponse.self)])
    }
    public static var example: CustomerVerifyCodeResponse { .signedIn(.example) }
}

extension CustomerMeResponse: WireType {
    public static var schema: JSONSchema {
        .object([
            .init("client", .ref(CustomerClient.self)),
            .init("company", .ref(CustomerCompany.self)),
        ])
    }
    public static var example: CustomerMeResponse { CustomerMeResponse(client: .example, company: .example) }
}
