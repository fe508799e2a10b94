/// The common case of a refresh, done the engine's fastest way: claim a presented token that
/// is live and unrotated, insert its successor and read the session's user. nil when the token
/// was not claimable (unknown, expired, rotated before): `RefreshTokenRotation`'s transaction
/// then works out which. The database picks the implementation when it opens
/// (`Database.refreshTokenClaim`), so nothing outside the storage layer asks for the engine.
protocol RefreshTokenClaiming<Account>: Sendable {
    associatedtype Account: SessionAccount
    func claim(_ claim: RefreshTokenRotation<Account>.Claim) async throws -> RefreshTokenRotation<Account>.Outcome?
}
