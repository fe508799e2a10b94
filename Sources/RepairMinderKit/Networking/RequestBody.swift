import Foundation
import RepairMinderModels

/// A request body as it goes on the wire: its bytes and their media type. A `RawRequestBody`
/// (the clients' CSV import) is sent as its own bytes with its own `Content-Type`; every other
/// body is JSON.
struct RequestBody: Sendable, Equatable {
    /// The media type of every body but a raw one.
    static let json = "application/json"

    let data: Data
    let contentType: String

    /// `body` encoded: a raw body's bytes, or JSON. A raw body beyond the route's `maxBytes` is
    /// refused before anything is sent (the server would answer 413 after reading it all).
    static func encoded<Body: Encodable>(_ body: Body) throws -> RequestBody {
        guard let raw = body as? any RawRequestBody else {
            return RequestBody(data: try JSONEncoder().encode(body), contentType: json)
        }
        let bytes = raw.bytes
        let limit = type(of: raw).maxBytes
        guard bytes.count <= limit else {
            throw APIError.invalidRequest(
                "the body is \(bytes.count) bytes; the server takes at most \(limit) (\(type(of: raw).mediaType))")
        }
        return RequestBody(data: bytes, contentType: type(of: raw).mediaType)
    }
}
