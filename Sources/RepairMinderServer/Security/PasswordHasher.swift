import HummingbirdBcrypt
import NIOCore
import NIOPosix

/// bcrypt on a thread pool of its own: hashing takes ~0.25 s at cost 12 and must never run on
/// an event loop, nor on the pool the database uses, or every other request would queue behind it.
final class PasswordHasher: Sendable {
    private let pool: NIOThreadPool
    private let cost: UInt8
    /// A real hash of a random password, verified against when the email is unknown so that
    /// "no such user" takes as long as "wrong password" (docs/API.md §2.1).
    private let dummyHash: String

    init(cost: Int, threads: Int = System.coreCount) {
        self.cost = UInt8(clamping: cost)
        pool = NIOThreadPool(numberOfThreads: max(1, threads))
        pool.start()
        dummyHash = Bcrypt.hash(RandomToken.base64URL(byteCount: 16), cost: UInt8(clamping: cost))
    }

    func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await pool.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    /// Verifies `password` against `hash`, or against the dummy hash when there is none.
    func verify(_ password: String, against hash: String?) async throws -> Bool {
        let target = hash ?? dummyHash
        let matches = try await pool.runIfActive { Bcrypt.verify(password, hash: target) }
        return hash != nil && matches
    }

    func shutdown() async {
        try? await pool.shutdownGracefully()
    }
}
