import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one HTTP request. `URLSession` in apps; tests may inject their own.
public protocol HTTPTransport: Sendable {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// The `URLSession` transport.
public struct URLSessionTransport: HTTPTransport {
    private let session: URLSession

    public init(session: URLSession = URLSession(configuration: .ephemeral)) {
        self.session = session
    }

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
    }
}

/// The User-Agent of docs/API.md §1, which the server reads to give mobile clients 90-day sessions.
public enum RepairMinderUserAgent {
    public static func value(appVersion: String = "1.0") -> String {
        #if os(iOS)
        return "RepairMinder-iOS/\(appVersion) (iPhone; iOS \(ProcessInfo.processInfo.operatingSystemVersionString))"
        #else
        return "RepairMinderKit/\(appVersion) (\(osName))"
        #endif
    }

    private static var osName: String {
        #if os(macOS)
        return "macOS"
        #elseif os(Linux)
        return "Linux"
        #else
        return "Swift"
        #endif
    }
}
