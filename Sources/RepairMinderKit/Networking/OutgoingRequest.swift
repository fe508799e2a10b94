import Foundation
import RepairMinderModels
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A route made concrete: method, escaped path, query, encoded body and credential.
struct OutgoingRequest: Sendable {
    let method: HTTPMethod
    let path: String
    let query: [URLQueryItem]
    let body: Data?
    /// The body's `Content-Type`: JSON, or a raw body's own media type (`RawRequestBody`).
    let contentType: String
    /// The `Accept` header: JSON, or a binary route's media types (with JSON for its failures).
    let accept: String
    let credential: RouteCredential

    init<Body, Answer>(
        route: Route<Body, Answer>, path values: [String], query: [URLQueryItem], body: Data?,
        contentType: String = RequestBody.json
    ) throws {
        guard let path = route.path.rendered(values) else {
            throw APIError.invalidRequest("\(route.erased) takes \(route.path.parameterNames.count) path values, not \(values.count)")
        }
        method = route.method
        self.path = path
        self.query = query
        self.body = body
        self.contentType = contentType
        if case .binary(let types) = route.format, !types.isEmpty {
            accept = (types + [RequestBody.json]).joined(separator: ", ")
        } else {
            accept = RequestBody.json
        }
        credential = route.credential
    }

    /// `route` with `body` encoded as the route sends it (`RequestBody.encoded`).
    init<Body, Answer>(route: Route<Body, Answer>, path values: [String], query: [URLQueryItem], sending body: Body) throws {
        let encoded = route.hasBody ? try RequestBody.encoded(body) : nil
        try self.init(
            route: route, path: values, query: query, body: encoded?.data, contentType: encoded?.contentType ?? RequestBody.json)
    }
}
