import Foundation
import Logging

/// Everything the auth routes share, built once per application.
final class AuthServices: Sendable {
    let settings: ServerSettings
    let database: Database
    let clock: ServerClock
    let mailer: any Mailer
    let hasher: PasswordHasher
    let signer: JWTSigner
    let hashing: SecretHashing
    let accounts: AccountStore
    let challenges: LoginChallengeStore
    let magicCodes: MagicCodeStore
    let sessions: SessionStore
    let rotation: RefreshTokenRotation
    let limits: AbuseLimits
    let secretBox: SecretBox

    init(
        settings: ServerSettings, database: Database, jwtSecret: String, encryptionKey: String, clock: ServerClock,
        mailer: any Mailer
    ) {
        self.settings = settings
        self.database = database
        self.clock = clock
        self.mailer = mailer
        hasher = PasswordHasher(cost: settings.bcryptCost)
        signer = JWTSigner(secret: jwtSecret, previousSecret: settings.previousJWTSecret)
        hashing = SecretHashing(serverSecret: jwtSecret)
        accounts = AccountStore(database: database)
        challenges = LoginChallengeStore(database: database)
        magicCodes = MagicCodeStore(database: database)
        sessions = SessionStore(database: database)
        rotation = RefreshTokenRotation(database: database, hashing: hashing, settings: settings)
        limits = AbuseLimits(database: database, settings: settings, clock: clock)
        secretBox = SecretBox(key: encryptionKey)
    }
}
