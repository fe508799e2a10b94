import Foundation
import RepairMinderKit
import RepairMinderModels
import RepairMinderServer
import TestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A failure to reach the server keeps its kind (issue 52, item 6): offline, timed out, refused
/// and a failed secure connection each have their own words and their own `isRetryable`, from
/// real failures of the system's `URLSession`.
@Suite struct NetworkFailureTests {
    static func failure(_ url: URL, timeout: TimeInterval = 10) async throws -> APIError {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        let api = APIClient(
            baseURL: url, store: InMemoryCredentialStore(), transport: URLSessionTransport(session: URLSession(configuration: configuration)),
            retry: .none)
        do {
            _ = try await api.send(Routes.`public`.health)
        } catch let error as APIError {
            return error
        }
        throw Unexpected()
    }
    struct Unexpected: Error {}

    @Test func aRefusedConnectionIsWorthAnotherTry() async throws {
        let error = try await Self.failure(URL(string: "http://127.0.0.1:\(try freeLoopbackPort())")!)
        guard case .network(let failure) = error else { Issue.record("\(error)"); return }
        #expect(failure.kind == .cannotConnect)
        #expect(failure.urlErrorCode != nil)
        #expect(error.isRetryable)
        #expect(error.localizedDescription == "Cannot reach the server. Try again in a moment.")
    }

    /// TLS spoken to a server that answers plain HTTP: no secure connection, and no retry.
    @Test func aFailedSecureConnectionIsNotTriedAgain() async throws {
        let server = try await LiveServer()
        try await server.run { url in
            var components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
            components.scheme = "https"
            let error = try await Self.failure(try #require(components.url))
            guard case .network(let failure) = error else { Issue.record("\(error)"); return }
            #expect(failure.kind == .secureConnectionFailed, "\(failure.detail) (\(failure.urlErrorCode ?? 0))")
            #expect(!error.isRetryable)
            #expect(error.localizedDescription == "A secure connection to the server could not be made.")
        }
    }

    /// A server that accepts the connection and never answers.
    @Test func noAnswerInTimeIsATimeout() async throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        let port = try freeLoopbackPort()
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        #expect(bound && listen(listener, 4) == 0)
        let error = try await Self.failure(URL(string: "http://127.0.0.1:\(port)")!, timeout: 1)
        guard case .network(let failure) = error else { Issue.record("\(error)"); return }
        #expect(failure.kind == .timedOut, "\(failure.detail)")
        #expect(error.isRetryable)
        #expect(error.localizedDescription == "The server took too long to answer. Try again.")
    }

    /// The kinds a phone meets that a test machine cannot make: classified by their codes.
    @Test func theSystemsCodesAreClassified() {
        #expect(NetworkFailure(URLError(.notConnectedToInternet)).kind == .offline)
        #expect(NetworkFailure(URLError(.dataNotAllowed)).kind == .offline)
        #expect(NetworkFailure(URLError(.serverCertificateUntrusted)).kind == .secureConnectionFailed)
        #expect(NetworkFailure(URLError(.badURL)).kind == .other)
        #expect(NetworkFailure(URLError(.notConnectedToInternet)).urlErrorCode == URLError.Code.notConnectedToInternet.rawValue)
        #expect(APIError.network(NetworkFailure(URLError(.notConnectedToInternet))).errorDescription
            == "You are offline. Check your connection and try again.")
        // Refusals are the request's own answer: the same request would be refused again.
        #expect(!APIError.unauthorized(message: "no", code: .invalidCredentials).isRetryable)
        #expect(APIError.server(status: 503, message: "busy", code: nil).isRetryable)
        #expect(!APIError.server(status: 400, message: "bad", code: .validationError).isRetryable)
        #expect(APIError.rateLimited(retryAfter: 3, message: "slow down").isRetryable)
    }
}
