/// How the OS guards a stored item.
public enum CredentialProtection: Sendable, Equatable {
    /// Readable once the device has been unlocked after a restart, never synced off it.
    case standard
    /// Readable only after Face ID or Touch ID passes, and only with the biometrics enrolled
    /// when it was written (`SecAccessControl` `.biometryCurrentSet`): a new face or finger
    /// added later, or biometrics turned off, makes the item unreadable for good.
    case biometryCurrentSet
}

/// Why a guarded item could not be used.
public enum CredentialAccessError: Error, Sendable, Equatable {
    /// The person cancelled the Face ID or Touch ID prompt.
    case cancelled
    /// The prompt was shown and not passed.
    case notRecognised
    /// The store cannot guard items with biometrics (a file, memory).
    case protectionUnavailable
    /// The session is guarded by biometrics and has not been unlocked in this launch
    /// (`APIClient.unlockStaffSession()`, `AppModel.unlock()`).
    case sessionLocked
}
