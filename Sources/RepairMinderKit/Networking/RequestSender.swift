import Foundation
import RepairMinderModels
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns a route made concrete (`OutgoingRequest`) into an HTTP request against one server
/// and sends it: the URL under the base URL's path, the User-Agent of docs/API.md §1, the
/// `Accept` and `Content-Type` the request names (JSON, or a raw body's and a binary route's
/// media types) and the bearer token; an idempotent request is retried per `retry`, and each
/// try is told to `log`. Shared by `APIClient` and `REKIClient`.
struct RequestSender: Sendable {
    let baseURL: URL
    let transport: any HTTPTransport
    let userAgent: String
    var retry: RetryPolicy = .standard
    var log: (@Sendable (RequestRecord) -> Void)? = nil
    /// How the waits between tries are slept (`SDKClock.sleep`).
    var sleep: @Sendable (Duration) async throws -> Void = SDKClock.system.sleep

    /// The response, whatever its status; transport failures become `APIError.network`, and
    /// cancellation stays `CancellationError`.
    func send(_ outgoing: OutgoingRequest, bearer: String?) async throws -> (Data, HTTPURLResponse) {
        let request = try urlRequest(outgoing, bearer: bearer)
        let tries = RetryPolicy.isIdempotent(outgoing.method.rawValue) ? retry.attempts : 1
        for attempt in 1... {
            let started = ContinuousClock.now
            let answer: (Data, HTTPURLResponse)
            do {
                answer = try await transmit(request)
            } catch let error as APIError {
                record(outgoing, status: nil, attempt: attempt, since: started, failure: error.message)
                guard attempt < tries else { throw error }
                try await sleep(retry.delay(beforeRetry: attempt, retryAfter: nil))
                continue
            }
            record(outgoing, status: answer.1.statusCode, attempt: attempt, since: started, failure: nil)
            guard answer.1.statusCode == 503, attempt < tries else { return answer }
            try await sleep(retry.delay(beforeRetry: attempt, retryAfter: RetryAfter.seconds(in: answer.1)))
        }
        throw APIError.network(NetworkFailure(kind: .other, detail: "no try was made"))
    }

    private func record(_ outgoing: OutgoingRequest, status: Int?, attempt: Int, since started: ContinuousClock.Instant, failure: String?) {
        log?(
            RequestRecord(
                method: outgoing.method.rawValue, path: outgoing.path, status: status, attempt: attempt,
                duration: ContinuousClock.now - started, failure: failure))
    }

    private func urlRequest(_ outgoing: OutgoingRequest, bearer: String?) throws -> URLRequest {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)
        // The base URL may carry a prefix (`https://host/v2`): the route's path goes after it.
        let prefix = components?.percentEncodedPath.trimmingSuffix("/") ?? ""
        components?.percentEncodedPath = prefix + outgoing.path
        if !outgoing.query.isEmpty { components?.queryItems = outgoing.query }
        guard let url = components?.url else { throw APIError.invalidRequest("bad URL for \(outgoing.path)") }
        var request = URLRequest(url: url)
        request.httpMethod = outgoing.method.rawValue
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        request.setValue(outgoing.accept, forHTTPHeaderField: "Accept")
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let body = outgoing.body {
            request.httpBody = body
            request.setValue(outgoing.contentType, forHTTPHeaderField: "Content-Type")
        }
        return request
    }

    private func transmit(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        do {
            return try await transport.send(request)
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as URLError where error.code == .cancelled {
            throw CancellationError()
        } catch {
            throw APIError.network(NetworkFailure(error))
        }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
