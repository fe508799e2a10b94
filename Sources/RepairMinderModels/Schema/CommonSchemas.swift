/// Wire types shared by every feature: acknowledgements, empty bodies, untyped JSON, lists
/// and their pagination (docs/API.md §1).

extension Array: WireType where Element: WireType {
    public static var schemaName: String { "\(Element.schemaName)List" }
    public static var schema: JSONSchema { .array(.ref(Element.self)) }
    public static var example: [Element] { [Element.example] }
}
