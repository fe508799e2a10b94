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

/// The User-Agent of docs/API.md §1 (`RepairMinder-iOS/<version> (iPhone; iOS <version>)`),
/// which the server reads to give mobile clients 90-day sessions.
public enum RepairMinderUserAgent {
    /// `appVersion` defaults to the app bundle's `CFBundleShortVersionString`.
    public static func value(appVersion: String = bundleVersion) -> String {
        #if os(iOS)
        return "RepairMinder-iOS/\(appVersion) (iPhone; iOS \(systemVersion(ProcessInfo.processInfo.operatingSystemVersion)))"
        #else
        return "RepairMinderKit/\(appVersion) (\(osName))"
        #endif
    }

    /// The app's version, or 1.0 outside an app bundle (tests, the command line).
    public static var bundleVersion: String {
        Bundle.main.infoDictionary?["CFBundleShortVersionString"] as? String ?? "1.0"
    }

    /// `18.0` or `17.4.1`: the numbers only (`operatingSystemVersionString` reads "Version 18.0
    /// (Build 22A3354)", which is not what §1 shows).
    public static func systemVersion(_ version: OperatingSystemVersion) -> String {
        "\(version.majorVersion).\(version.minorVersion)" + (version.patchVersion > 0 ? ".\(version.patchVersion)" : "")
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
