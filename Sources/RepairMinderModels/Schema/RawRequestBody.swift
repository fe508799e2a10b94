import Foundation

/// A request body that is not JSON: the bytes of one media type, as sent (the clients' CSV
/// import, docs/API.md §14). The server reads it up to `maxBytes` instead of the JSON bodies'
/// limit; the OpenAPI document declares it under `mediaType`; the SDK sends it as it is.
public protocol RawRequestBody: WireType {
    /// The `Content-Type` the route takes (its parameters, such as `charset`, aside).
    static var mediaType: String { get }
    /// The largest body the route reads: 413 `PAYLOAD_TOO_LARGE` beyond.
    static var maxBytes: Int { get }
    /// The body from its bytes; throws a `FieldProblem` for bytes that are not what the type holds.
    init(bytes: Data) throws
    /// The bytes to send.
    var bytes: Data { get }
}

/// A CSV file (RFC 4180, UTF-8), the body of `POST /api/clients/import`.
public struct CSVFile: RawRequestBody, Equatable {
    public static let mediaType = "text/csv"
    /// 10 MiB (docs/API.md §7).
    public static let maxBytes = 10 * 1024 * 1024
    /// The file's text.
    public var text: String

    public init(text: String) { self.text = text }

    public init(bytes: Data) throws {
        guard let text = String(data: bytes, encoding: .utf8) else { throw FieldProblem("The file must be UTF-8 text") }
        self.text = text
    }

    public var bytes: Data { Data(text.utf8) }

    // Encoded as its text, which is what the schema describes.
    public init(from decoder: any Decoder) throws { text = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    public static var schema: JSONSchema { .string(.init(description: "CSV text (RFC 4180, UTF-8) with a header row")) }
    public static var example: CSVFile {
        CSVFile(text: "email,first_name,last_name,phone,notes\r\njane@example.com,Jane,Customer,+44 7700 900123,Prefers a call\r\n")
    }
}
