import Foundation

/// Refuses to serve or restore with an encryption key that cannot be the one the database's
/// secrets were sealed with (issue 50, item 3): a data directory restored without its
/// `encryption-key`, or a key mistyped in the settings. Without this check the server would
/// start, generate or take the wrong key silently, and fail each user with an authenticator
/// app with a 500 later.
enum EncryptionKeyCheck {
    /// Tries up to `sample` sealed values of each kind (`EncryptionKeyRotation.columns`) under
    /// `keys`; throws one line when there are sealed values and none opens, or when there are
    /// some and no key at all (`keys` nil: none configured and none generated yet, which a
    /// start would now generate). A database with no sealed value accepts any key. A sample,
    /// not every row: a start stays quick at a million users, and a wrong key opens none.
    static func requireOpening(_ database: Database, with keys: EncryptionKeys?, sample: Int = 20) async throws {
        let box = keys.map { SecretBox(keys: $0) }
        var tried = 0, opened = 0
        for column in EncryptionKeyRotation.columns {
            for row in try await EncryptionKeyRotation.sealedRows(of: column, limit: sample, in: database) {
                tried += 1
                if let box, (try? box.opened(row.sealed, owner: column.owner(row.rowKey))) != nil { opened += 1 }
            }
        }
        guard tried > 0, opened == 0 else { return }
        let values = "\(tried) sealed value\(tried == 1 ? "" : "s") (TOTP secrets, queued mail)"
        guard keys != nil else {
            throw SettingsError(
                "the database holds \(values) but there is no encryption key: put back the one kept with it (the data directory's encryption-key file, or --encryption-key); a new key would open none of them"
            )
        }
        throw SettingsError(
            "the encryption key opens none of the database's \(values): it is not the key they were sealed with; give the one kept with this database (the data directory's encryption-key file, or --encryption-key)"
        )
    }
}
