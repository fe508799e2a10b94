import Foundation

/// What `repairminder keys` does to a signing key set file (docs/API.md §2.6): rotate in a new
/// key, list the keys and what each does now.
public enum SigningKeyAdministration {
    /// One key as `keys list` shows it.
    public struct KeyStatus: Sendable, Equatable {
        public enum State: Sendable, Equatable {
            /// Published, and signs from `activatesAt`.
            case published
            /// The key that signs now.
            case signing
            /// Replaced; tokens it signed verify until then.
            case retired(verifiesUntil: Double)
        }

        public let kid: String
        public let algorithm: String
        public let activatesAt: Double
        public let state: State
    }

    /// Adds a key of `algorithm` and an ID token key (RS256) to the set at `path` (creating the
    /// file, 0600, when there is none): published at once, signing `activationDelay` seconds
    /// from `now` so that caches of the JWKS have them first (at once in a new file: nothing can
    /// have cached it). Keys past their last verification are dropped. Returns the new access
    /// token key and the `kid`s dropped.
    ///
    /// `retiring`, when the set is created: the HS256 secret used until now, which keeps
    /// verifying its tokens for `tokenLifetime` (a switch from HS256 signs nobody out).
    public static func rotate(
        path: String, algorithm: SigningKeyAlgorithm, activationDelay: Double, tokenLifetime: Double, now: Double,
        retiring secret: String? = nil
    ) throws -> (added: KeyStatus, dropped: [String]) {
        guard FileManager.default.fileExists(atPath: path) else {
            let set = try SigningKeyFile.loadOrCreate(path, algorithm: algorithm, retiring: secret, now: now)
            let added = set.signingKey(at: now)?.kid
            return (try require(statuses(of: set, lifetime: tokenLifetime, now: now).first { $0.kid == added }), [])
        }
        var set = try SigningKeyFile.load(path)
        let kept = set.verificationKeys(at: now, lifetime: tokenLifetime)
        let dropped = set.keys.map(\.kid).filter { kid in !kept.contains { $0.kid == kid } }
        let activatesAt = now + max(0, activationDelay)
        let added = try SigningKeySet.generate(algorithm, activatesAt: activatesAt)
        set.keys = kept + [added, try SigningKeySet.generate(.rs256, activatesAt: activatesAt)]
        try SigningKeyFile.write(set, to: path)
        return (try require(statuses(of: set, lifetime: tokenLifetime, now: now).first { $0.kid == added.kid }), dropped)
    }

    /// The keys of the set at `path`, oldest first, with what each does at `now`.
    public static func list(path: String, tokenLifetime: Double, now: Double) throws -> [KeyStatus] {
        statuses(of: try SigningKeyFile.load(path), lifetime: tokenLifetime, now: now)
    }

    private static func statuses(of set: SigningKeySet, lifetime: Double, now: Double) -> [KeyStatus] {
        let signing = [set.signingKey(at: now)?.kid, set.idTokenKey(at: now)?.kid]
        return set.keys.map { key in
            let state: KeyStatus.State =
                if signing.contains(key.kid) { .signing } else if let retired = set.retirement(of: key, at: now) {
                    .retired(verifiesUntil: retired + lifetime)
                } else { .published }
            return KeyStatus(kid: key.kid, algorithm: key.alg.rawValue, activatesAt: key.activatesAt, state: state)
        }
    }

    /// `value`, or an error saying the set came out empty (it cannot: a key was just added).
    private static func require<T>(_ value: T?) throws -> T {
        guard let value else { throw SettingsError("the signing key set came out empty") }
        return value
    }
}
