import Foundation
import RepairMinderModels
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns a route made concrete (`OutgoingRequest`) into an HTTP request against one server
/// and sends it: the URL under the base URL's path, the User-Agent of docs/API.md §1, JSON
/// headers and the bearer token. Shared by `APIClient` and `REKIClient`.
struct RequestSender: Sendable {
    let baseURL: URL
    let transport: any HTTPTransport
    let userAgent: String

    /// The response, whatever its status; transport failures become `APIError.network`, and
    /// cancellation stays `CancellationError`.
    func send(_ outgoing: OutgoingRequest, bearer: String?) async throws -> (Data, HTTPURLResponse) {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)
        // The base URL may carry a prefix (`https://host/v2`): the route's path goes after it.
        let prefix = components?.percentEncodedPath.trimmingSuffix("/") ?? ""
        components?.percentEncodedPath = prefix + outgoing.path
        if !outgoing.query.isEmpty { components?.queryItems = outgoing.query }
        guard let url = components?.url else { throw APIError.network("bad URL for \(outgoing.path)") }
        var request = URLRequest(url: url)
        request.httpMethod = outgoing.method.rawValue
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let body = outgoing.body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        do {
            return try await transport.send(request)
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as URLError where error.code == .cancelled {
            throw CancellationError()
        } catch {
            throw APIError.network(error.localizedDescription)
        }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
