import Foundation

/// The signing key set on disk: read, created once (development), rewritten in one step.
enum SigningKeyFile {
    /// The set at `path`, with a message naming the file when it cannot be used.
    static func load(_ path: String) throws -> SigningKeySet {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SettingsError("cannot read the signing keys at \(path); fix its permissions or path")
        }
        let set: SigningKeySet
        do {
            set = try JSONDecoder().decode(SigningKeySet.self, from: data)
        } catch {
            throw SettingsError("\(path) is not a signing key set (a JWK Set with private keys): \(Self.describe(error))")
        }
        guard !set.keys.isEmpty else { throw SettingsError("\(path) holds no signing key") }
        for key in set.keys where key.alg != .hs256 && key.d == nil {
            throw SettingsError("\(path): key \(key.kid) has no private part (\"d\"), so it cannot sign")
        }
        return set
    }

    /// The set at `path`; when there is none, a new one with one `algorithm` key and one ID
    /// token key (RS256) active at once, and `retiring` (the HS256 secret used so far)
    /// verifying for an access token's lifetime more, so that switching from HS256 signs nobody
    /// out. Two processes creating it together end up with the same set. An existing set
    /// without an ID token key gets one, when `addingIDTokenKey` (development: in production
    /// `repairminder keys rotate` adds it, so that two instances never add two).
    static func loadOrCreate(
        _ path: String, algorithm: SigningKeySet.Algorithm, retiring secret: String?, now: Double, addingIDTokenKey: Bool = true
    ) throws -> SigningKeySet {
        if FileManager.default.fileExists(atPath: path) {
            let set = try load(path)
            guard addingIDTokenKey, let completed = try set.addingIDTokenKey(at: now) else { return set }
            try write(completed, to: path)
            return completed
        }
        try DataDirectory.create(URL(fileURLWithPath: path).deletingLastPathComponent().path)
        var keys = [try SigningKeySet.generate(algorithm, activatesAt: now), try SigningKeySet.generate(.rs256, activatesAt: now)]
        if let secret { keys.insert(SigningKeySet.symmetric(secret: secret, activatesAt: 0), at: 0) }
        try SecretFile.createIfAbsent(try text(of: SigningKeySet(keys: keys)), at: path)
        return try load(path)
    }

    /// Replaces the set at `path` with `set`, readers seeing the old or the new one whole.
    static func write(_ set: SigningKeySet, to path: String) throws {
        try SecretFile.replace(try text(of: set), at: path)
    }

    private static func text(of set: SigningKeySet) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(set), as: UTF8.self) + "\n"
    }

    /// A decoding error in a sentence: what was wrong, and where.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .keyNotFound(let key, let context):
            return "\"\(key.stringValue)\" is missing" + place(context)
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return context.debugDescription + place(context)
        @unknown default:
            return "\(error)"
        }
    }

    private static func place(_ context: DecodingError.Context) -> String {
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return path.isEmpty ? "" : " (at \(path))"
    }
}
