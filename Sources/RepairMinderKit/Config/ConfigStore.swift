import Foundation
import RepairMinderModels
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The app configuration: the bundled `config.json` at once (works offline), a copy fetched
/// before when it is not older than the bundled one (an app update ships a newer config than
/// the cache of the previous version), and `refresh()` to ask the server with `If-None-Match`.
/// `AppModel.launch()` refreshes it.
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

    /// - Parameters:
    ///   - cacheDirectory: where a fetched copy is kept between launches (nil: none).
    ///   - bundled: the configuration shipped with the app (`AppConfig.bundled()` when nil).
    public init(baseURL: URL, cacheDirectory: URL?, transport: any HTTPTransport = URLSessionTransport(), bundled: AppConfig? = nil) throws {
        self.baseURL = baseURL
        self.transport = transport
        cacheURL = cacheDirectory?.appendingPathComponent("config-cache.json")
        let bundled = try bundled ?? AppConfig.bundled()
        if let cacheURL, let data = try? Data(contentsOf: cacheURL), let cached = try? JSONDecoder().decode(Cached.self, from: data),
            !Self.version(bundled.version, isNewerThan: cached.config.version)
        {
            config = cached.config
            etag = cached.etag
        } else {
            // No cache, or one older than what this build ships: the server is asked without
            // the old ETag, so a 304 cannot pin the old copy.
            config = bundled
            etag = nil
        }
    }

    /// Whether dotted version `a` is newer than `b`, component by component, numbers as
    /// numbers ("1.10.0" is newer than "1.9.2"); a missing component counts as 0.
    public static func version(_ a: String, isNewerThan b: String) -> Bool {
        let left = a.split(separator: "."), right = b.split(separator: ".")
        for index in 0..<max(left.count, right.count) {
            let x = index < left.count ? String(left[index]) : "0", y = index < right.count ? String(right[index]) : "0"
            if x == y { continue }
            if let x = Int(x), let y = Int(y) { return x > y }
            return x.compare(y, options: .numeric) == .orderedDescending
        }
        return false
    }

    /// Fetches `/api/config`; returns true when a newer configuration was stored. Network
    /// failures leave the current one in place (and throw, for the caller to log).
    @discardableResult
    public func refresh() async throws -> Bool {
        var request = URLRequest(url: baseURL.appendingPathComponent(Routes.public.config.path.description))
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
