import Foundation
import HTTPTypes
import Hummingbird
import RepairMinderModels

extension Response {
    /// For what `StreamingJSONEncoder` cannot write; one for every response: its options never
    /// change after this, and making one per response showed in the profile of the hot paths.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return encoder
    }()

    /// A JSON response of exactly `value`'s encoding.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: .init(byteBuffer: body(of: value)))
    }

    /// `value` as JSON: streamed (the same bytes as `JSONEncoder`, without its tree of values),
    /// or by `JSONEncoder` where a stream cannot be written.
    static func body(of value: some Encodable) -> ByteBuffer {
        if let streamed = try? StreamingJSONEncoder().encode(value) { return ByteBuffer(bytes: streamed) }
        // Encoding our own wire types cannot fail; if it ever did, answer a valid envelope anyway.
        let encoded = (try? encoder.encode(value))
            ?? Data(#"{"success":false,"error":"An unexpected error occurred","code":"INTERNAL_ERROR"}"#.utf8)
        return ByteBuffer(bytes: encoded)
    }

    /// `{"success": true, "data": data}`.
    static func envelope<T: Codable & Sendable>(_ data: T, status: HTTPResponse.Status = .ok) -> Response {
        json(Envelope.ok(data), status: status)
    }

    /// `{"success": true}`.
    static var bareSuccess: Response { json(ErrorEnvelope.bareSuccess) }
}
