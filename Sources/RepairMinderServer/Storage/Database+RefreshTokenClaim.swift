extension Database {
    /// The refresh claim this engine does fastest: SQLite writes one transaction at a time, so
    /// concurrent refreshes are claimed together; PostgreSQL does each in one statement.
    func refreshTokenClaim<Account: SessionAccount>(
        revocation: SessionRevocation, settings: ServerSettings
    ) -> any RefreshTokenClaiming<Account> {
        switch engine {
        case .sqlite: BatchedRefreshTokenClaim<Account>(revocation: revocation, settings: settings)
        case .postgres: OneStatementRefreshTokenClaim<Account>(database: self, revocation: revocation, settings: settings)
        }
    }
}
