import Foundation
import RepairMinderModels
import SQLKit

/// Checks a passkey's signature over a sign-in challenge against the stored passkey: for the
/// usernameless sign-in and for login step 3 (docs/API.md §11.1, §11.3).
struct PasskeyAssertions: Sendable {
    let store: PasskeyStore
    let relyingParty: WebAuthnRelyingParty

    /// A checked assertion and the passkey that made it; its use is not recorded yet (`record`).
    struct Checked: Sendable {
        let passkey: PasskeyRecord
        let assertion: WebAuthnRelyingParty.Assertion

        /// Records the use on `db` (the caller's transaction); false when the sign counter went
        /// backwards or a concurrent sign-in used the same count.
        func record(now: Double, on db: any SQLDatabase) async throws -> Bool {
            try await PasskeyStore.recordUse(
                of: passkey, signCount: assertion.signCount, backedUp: assertion.backedUp, now: now, on: db)
        }
    }

    /// Checks `credential` against the ceremony whose challenge hashes to `challengeHash`. With
    /// `user`, the passkey must be that user's (step 3); without, the response must name its
    /// user handle, which must be the passkey's user's (a discoverable credential always does).
    /// A `PasskeyProblem` when the answer is refused; other errors are the database's.
    func check(_ credential: AuthenticationResponseJSON, challengeHash: String, user: String?) async throws -> Checked {
        guard let passkey = try await store.passkey(credentialId: credential.rawId) else {
            throw PasskeyProblem("no passkey has this credential id")
        }
        if let user, passkey.userId != user { throw PasskeyProblem("the passkey is another user's") }
        if let handle = credential.response.userHandle {
            guard try await store.user(forHandle: handle) == passkey.userId else {
                throw PasskeyProblem("the user handle is not the passkey's user's")
            }
        } else if user == nil {
            throw PasskeyProblem("the response names no user handle")
        }
        guard let keyBytes = Data(base64URLEncoded: passkey.publicKey) else { throw PasskeyProblem("the stored key is not base64url") }
        let assertion = try relyingParty.verifyAssertion(
            credential, challengeHash: challengeHash, publicKey: try COSEKey(stored: Array(keyBytes)))
        return Checked(passkey: passkey, assertion: assertion)
    }
}
