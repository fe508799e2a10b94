/// Wire types shared by every feature: acknowledgements, empty bodies, untyped JSON, lists
/// and their pagination (docs/API.md §1).

extension MessageResponse: WireType {
    public static var schema: JSONSchema { .object([.init("message", .text)]) }
    public static var example: MessageResponse { MessageResponse(message: "2FA code sent to your email") }
}

extension EmptyPayload: WireType {
    public static var schema: JSONSchema { .object([]) }
    public static var example: EmptyPayload { EmptyPayload() }
}

extension JSONValue: WireType {
    public static var schema: JSONSchema { .anything }
    public static var example: JSONValue {
        ["id": .string(WireExample.companyId), "name": "Acme Repairs", "active": true, "count": 3]
    }
}

extension Pagination: WireType {
    public static var schema: JSONSchema {
        .object([
            .init("page", .integer(minimum: 1)),
            .init("limit", .integer(minimum: 1)),
            .init("total", .integer(minimum: 0)),
            .init("total_pages", .integer(minimum: 0)),
        ])
    }
    public static var example: Pagination { Pagination(page: 1, limit: 20, total: 100, totalPages: 5) }
}

extension Array: WireType where Element: WireType {
    public static var schemaName: String { "\(Element.schemaName)List" }
    public static var schema: JSONSchema { .array(.ref(Element.self)) }
    public static var example: [Element] { [Element.example] }
}
