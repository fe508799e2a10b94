/// The JSON envelope every Repair Minder response body is wrapped in (docs/API.md §1).
///
/// Success: `{"success": true, "data": ...}`; failure: `{"success": false, "error": "...", "code": "..."}`;
/// bare success (logout): `{"success": true}`.
public struct Envelope<Payload: Codable & Sendable>: Codable, Sendable {
    public var success: Bool
    public var data: Payload?
    public var error: String?
    public var code: ErrorCode?
    /// The counts of a list's page, beside its items in `data`.
    public var pagination: Pagination?
    /// The client a failure is about: the existing one of a 409 `CLIENT_EXISTS` (docs/API.md §14).
    public var clientId: String?

    public init(
        success: Bool, data: Payload? = nil, error: String? = nil, code: ErrorCode? = nil, pagination: Pagination? = nil,
        clientId: String? = nil
    ) {
        self.success = success
        self.data = data
        self.error = error
        self.code = code
        self.pagination = pagination
        self.clientId = clientId
    }

    /// A successful envelope carrying `data`.
    public static func ok(_ data: Payload) -> Envelope { Envelope(success: true, data: data) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(success, forKey: .success)
        try container.encodeIfPresent(data, forKey: .data)
        try container.encodeIfPresent(error, forKey: .error)
        try container.encodeIfPresent(code, forKey: .code)
        try container.encodeIfPresent(pagination, forKey: .pagination)
        try container.encodeIfPresent(clientId, forKey: .clientId)
    }
}

/// A payload for envelopes that carry no data (`{"success": true}`) or only an error.
public struct EmptyPayload: Codable, Sendable, Equatable {
    public init() {}
}

extension EmptyPayload: WireType {
    public static var schema: JSONSchema { .object([]) }
    public static var example: EmptyPayload { EmptyPayload() }
}

/// The failure envelope: `{"success": false, "error": message, "code": code}`.
public typealias ErrorEnvelope = Envelope<EmptyPayload>

extension Envelope where Payload == EmptyPayload {
    /// `{"success": true}` with no data.
    public static var bareSuccess: Envelope { Envelope(success: true) }

    /// `{"success": false, "error": message, "code": code}`.
    public static func failure(message: String, code: ErrorCode, clientId: String? = nil) -> Envelope {
        Envelope(success: false, error: message, code: code, clientId: clientId)
    }
}

/// `{"message": "..."}`, the data of endpoints that only acknowledge.
public struct MessageResponse: Codable, Sendable, Equatable {
    public var message: String
    public init(message: String) { self.message = message }
}

extension MessageResponse: WireObject {
    public static let fields: [ResponseField<Self>] = [.init("message", \.message, .text)]
    public static var schema: JSONSchema { .object(fields) }
    public static var example: MessageResponse { MessageResponse(message: "2FA code sent to your email") }
}
