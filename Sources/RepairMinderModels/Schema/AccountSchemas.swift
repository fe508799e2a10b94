/// The staff `user` and `company` objects (docs/API.md §2.3, §4): snake_case keys, integer
/// booleans, absent values sent as `null`.

extension StaffUser: WireType {
    public static var schema: JSONSchema {
        .object(
            [
                .init("id", .nonEmptyText),
                .init("email", .email),
                .init("first_name", .nullable(.text)),
                .init("last_name", .nullable(.text)),
                .init("company_id", .nonEmptyText),
                .init("role", .cases(of: UserRole.self)),
                .init("phi_access_level", .nullable(.text)),
                .init("data_classification", .nullable(.text)),
                .init("is_active", .integerBoolean),
                .init("magic_link_enabled", .nullable(.integerBoolean)),
                .init("company_status", .nullable(.cases(of: CompanyStatus.self))),
                .init("last_login", .nullable(.timestamp)),
                .init("created_at", .nullable(.timestamp)),
                .init("updated_at", .nullable(.timestamp)),
            ],
            description: "A staff member")
    }
    public static var example: StaffUser {
        StaffUser(
            id: WireExample.userId, email: WireExample.staffEmail, firstName: "Ada", lastName: "Lovelace",
            companyId: WireExample.companyId, role: .admin, phiAccessLevel: "full", dataClassification: "internal",
            isActive: true, magicLinkEnabled: true, companyStatus: CompanyStatus.active.rawValue,
            lastLogin: WireExample.timestamp, createdAt: "2026-01-15T09:30:00Z", updatedAt: WireExample.timestamp)
    }
}

extension Company: WireType {
    public static var schema: JSONSchema {
        let vatRate = JSONSchema.nullable(
            .string(.init(pattern: "^[0-9]+(\\.[0-9]+)?$", description: "A percentage as a decimal string, e.g. \"20.00\"")))
        return .object(
            [
                .init("id", .nonEmptyText),
                .init("name", .nonEmptyText),
                .init("status", .cases(of: CompanyStatus.self)),
                .init("currency_code", .nullable(.string(.init(description: "ISO 4217, e.g. GBP")))),
                .init("vat_number", .nullable(.text)),
                .init("logo_url", .nullable(.url)),
                .init("vat_rate_repair", vatRate),
                .init("vat_rate_device_sale", vatRate),
                .init("vat_rate_accessory", vatRate),
                .init("vat_rate_device_purchase", vatRate),
            ],
            description: "A repair shop, as its staff see it")
    }
    public static var example: Company {
        Company(
            id: WireExample.companyId, name: "Acme Repairs", status: .active, currencyCode: "GBP",
            vatNumber: "GB123456789", logoUrl: WireExample.logoURL, vatRateRepair: "20.00",
            vatRateDeviceSale: "20.00", vatRateAccessory: "20.00", vatRateDevicePurchase: "0.00")
    }
}
