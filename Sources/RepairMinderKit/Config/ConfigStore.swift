import Foundation
import RepairMinderModels
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The app configuration: the bundled `config.json` at once (works offline), a cached newer
/// copy when one was fetched before, and `refresh()` to ask the server with `If-None-Match`.
public actor ConfigStore {
    public private(set) var config: AppConfig
    private var etag: String?
    private let cacheURL: URL?
    private let baseURL: URL
    private let transport: any HTTPTransport

    private struct Cached: Codable {
        let etag: String?
        let config: AppConfig
    }

    /// - Parameter cacheDirectory: where a fetched copy is kept between launches (nil: none).
    public init(baseURL: URL, cacheDirectory: URL?, transport: any HTTPTransport = URLSessionTransport()) throws {
        self.baseURL = baseURL
        self.transport = transport
        cacheURL = cacheDirectory?.appendingPathComponent("config-cache.json")
        if let cacheURL, let data = try? Data(contentsOf: cacheURL), let cached = try? JSONDecoder().decode(Cached.self, from: data) {
            config = cached.config
            etag = cached.etag
        } else {
            config = try AppConfig.bundled()
            etag = nil
        }
    }

    /// Fetches `/api/config`; returns true when a newer configuration was stored. Network
    /// failures leave the current one in place (and throw, for the caller to log).
    @discardableResult
    public func refresh() async throws -> Bool {
        var request = URLRequest(url: baseURL.appendingPathComponent(Routes.Public.config.path.description))
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        let (data, response) = try await transport.send(request)
        if response.statusCode == 304 { return false }
        let fetched = try APIClient.decodeData(AppConfig.self, from: try APIClient.check((data, response)))
        let newTag = response.value(forHTTPHeaderField: "ETag")
        config = fetched
        etag = newTag
        if let cacheURL {
            try? FileManager.default.createDirectory(at: cacheURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? JSONEncoder().encode(Cached(etag: newTag, config: fetched)).write(to: cacheURL, options: .atomic)
        }
        return true
    }

    public var currentETag: String? { etag }
}
