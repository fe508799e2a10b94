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
    let credential: RouteCredential

    init<Body, Answer>(route: Route<Body, Answer>, path values: [String], query: [URLQueryItem], body: Data?) throws {
        guard let path = route.path.rendered(values) else {
            throw APIError.invalidRequest("\(route.erased) takes \(route.path.parameterNames.count) path values, not \(values.count)")
        }
        method = route.method
        self.path = path
        self.query = query
        self.body = body
        credential = route.credential
    }
}
