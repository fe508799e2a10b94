/// The staff-side `company` object (docs/API.md §2.3): snake_case keys, VAT rates as decimal strings.
public struct Company: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var name: String
    public var status: CompanyStatus
    public var currencyCode: String?
    public var vatNumber: String?
    public var logoUrl: String?
    public var vatRateRepair: String?
    public var vatRateDeviceSale: String?
    public var vatRateAccessory: String?
    public var vatRateDevicePurchase: String?

    public init(
        id: String, name: String, status: CompanyStatus, currencyCode: String?, vatNumber: String?, logoUrl: String?,
        vatRateRepair: String?, vatRateDeviceSale: String?, vatRateAccessory: String?, vatRateDevicePurchase: String?
    ) {
        self.id = id
        self.name = name
        self.status = status
        self.currencyCode = currencyCode
        self.vatNumber = vatNumber
        self.logoUrl = logoUrl
        self.vatRateRepair = vatRateRepair
        self.vatRateDeviceSale = vatRateDeviceSale
        self.vatRateAccessory = vatRateAccessory
        self.vatRateDevicePurchase = vatRateDevicePurchase
    }

    enum CodingKeys: String, CodingKey {
        case id, name, status
        case currencyCode = "currency_code"
        case vatNumber = "vat_number"
        case logoUrl = "logo_url"
        case vatRateRepair = "vat_rate_repair"
        case vatRateDeviceSale = "vat_rate_device_sale"
        case vatRateAccessory = "vat_rate_accessory"
        case vatRateDevicePurchase = "vat_rate_device_purchase"
    }
}

extension Company: WireObject {
    /// A VAT rate: a percentage as a decimal string.
    private static let vatRate = JSONSchema.nullable(
        .string(.init(pattern: "^[0-9]+(\\.[0-9]+)?$", description: "A percentage as a decimal string, e.g. \"20.00\"")))
    public static let fields: [ResponseField<Self>] = [
        .init("id", \.id, .nonEmptyText),
        .init("name", \.name, .nonEmptyText),
        .init("status", \.status, .cases(of: CompanyStatus.self)),
        .init("currency_code", \.currencyCode, .nullable(.string(.init(description: "ISO 4217, e.g. GBP")))),
        .init("vat_number", \.vatNumber, .nullable(.text)),
        .init("logo_url", \.logoUrl, .nullable(.url)),
        .init("vat_rate_repair", \.vatRateRepair, vatRate),
        .init("vat_rate_device_sale", \.vatRateDeviceSale, vatRate),
        .init("vat_rate_accessory", \.vatRateAccessory, vatRate),
        .init("vat_rate_device_purchase", \.vatRateDevicePurchase, vatRate),
    ]
    public static var schema: JSONSchema { .object(fields, description: "A repair shop, as its staff see it") }
    public static var example: Company {
        Company(
            id: WireExample.companyId, name: "Acme Repairs", status: .active, currencyCode: "GBP",
            vatNumber: "GB123456789", logoUrl: WireExample.logoURL, vatRateRepair: "20.00",
            vatRateDeviceSale: "20.00", vatRateAccessory: "20.00", vatRateDevicePurchase: "0.00")
    }
}
