import NIOCore
import NIOPosix

/// bcrypt (`PasswordDigest`) on a thread pool of its own: hashing takes ~0.25 s at cost 12 and
/// must never run on an event loop, nor on the pool the database uses, or every other request
/// would queue behind it.
final class PasswordHasher: Sendable {
    private let pool: NIOThreadPool
    private let cost: UInt8
    /// A real hash of a random password, verified against when the email is unknown so that
    /// "no such user" takes as long as "wrong password" (docs/API.md §2.1).
    private let dummyHash: String

    /// A right password, and the hash that should replace its stored one (made when that one
    /// is of the old plain-bcrypt kind), to store with `AccountStore.replacePassword`.
    struct Match: Sendable {
        let upgradedHash: String?
    }

    init(cost: Int, threads: Int = System.coreCount) {
        self.cost = UInt8(clamping: cost)
        pool = NIOThreadPool(numberOfThreads: max(1, threads))
        pool.start()
        dummyHash = PasswordDigest.hash(RandomToken.base64URL(byteCount: 16), cost: UInt8(clamping: cost))
    }

    func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await pool.runIfActive { PasswordDigest.hash(password, cost: cost) }
    }

    /// Checks `password` against `hash`, or against the dummy hash when there is none (nil
    /// then, as for a wrong password). A right password under an old hash is hashed anew.
    func verify(_ password: String, against hash: String?) async throws -> Match? {
        let target = hash ?? dummyHash, cost = self.cost
        let verdict = try await pool.runIfActive { PasswordDigest.verify(password, against: target) }
        guard hash != nil, case .match(let outdated) = verdict else { return nil }
        guard outdated else { return Match(upgradedHash: nil) }
        return Match(upgradedHash: try await pool.runIfActive { PasswordDigest.hash(password, cost: cost) })
    }

    func shutdown() async {
        try? await pool.shutdownGracefully()
    }
}
