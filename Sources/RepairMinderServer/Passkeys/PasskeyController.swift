import Foundation
import RepairMinderModels

/// Passkeys: a signed-in staff member enrols, lists and removes them; anyone signs in with
/// one (docs/API.md §11.2, §11.3).
struct PasskeyController {
    let clock: ServerClock
    let store: PasskeyStore
    let relyingParty: WebAuthnRelyingParty
    let assertions: PasskeyAssertions
    let issuer: TokenIssuer

    func mount(on routes: RouteMounter) {
        routes.on(Routes.passkeys.registrationOptions, use: registrationOptions)
        routes.on(Routes.passkeys.register, use: register)
        routes.on(Routes.passkeys.list, use: list)
        routes.on(Routes.passkeys.remove, use: remove)
        routes.on(Routes.passkeys.loginOptions, use: loginOptions)
        routes.on(Routes.passkeys.login, use: login)
    }

    // MARK: Enrolment (§11.2)

    @Sendable func registrationOptions(_ call: RouteCall<EmptyPayload>) async throws -> PasskeyRegistrationOptions {
        let user = try call.staff.user
        let handle = try await store.handle(forUser: user.id)
        let existing = try await store.passkeys(ofUser: user.id).map(\.credentialId)
        // Refused before the person is asked to make one that would be refused at the end.
        guard existing.count < store.maximumPerUser else { throw APIError.passkeyLimit(store.maximumPerUser) }
        let (challenge, hash) = WebAuthnRelyingParty.newChallenge()
        let id = try await store.openCeremony(.registration, userId: user.id, challengeHash: hash, now: clock.now())
        let fullName = [user.firstName, user.lastName].compactMap { $0 }.joined(separator: " ")
        return PasskeyRegistrationOptions(
            challengeId: id,
            publicKey: relyingParty.creationOptions(
                challenge: challenge, userHandle: handle, email: user.email, displayName: fullName.isEmpty ? user.email : fullName,
                excluding: existing))
    }

    @Sendable func register(_ call: RouteCall<PasskeyRegistrationRequest>) async throws -> Passkey {
        let userId = try call.staff.user.id, now = clock.now()
        guard let challengeHash = try await store.useCeremony(id: call.body.challengeId, .registration, userId: userId, now: now)
        else { throw APIError.passkeyRefused(PasskeyProblem("the challenge is unknown, expired or already used")) }
        let credential: WebAuthnRelyingParty.NewCredential
        do {
            credential = try relyingParty.verifyRegistration(call.body.credential, challengeHash: challengeHash)
        } catch {
            throw APIError.passkeyRefused(error)
        }
        guard
            let passkey = try await store.insert(
                credential, userId: userId, name: call.body.name ?? "Passkey", device: call.device, now: now)
        else { throw APIError.passkeyRefused(PasskeyProblem("this passkey is already registered")) }
        return passkey.wire
    }

    @Sendable func list(_ call: RouteCall<EmptyPayload>) async throws -> [Passkey] {
        try await store.passkeys(ofUser: try call.staff.user.id).map(\.wire)
    }

    /// Another user's passkey, or an unknown id, is 404: ids are not probed.
    @Sendable func remove(_ call: RouteCall<EmptyPayload>) async throws -> EmptyPayload {
        let userId = try call.staff.user.id
        guard try await store.remove(id: try call.parameter("id"), ofUser: userId, device: call.device, now: clock.now()) else {
            throw APIError.notFound
        }
        return EmptyPayload()
    }

    // MARK: Sign-in (§11.3)

    @Sendable func loginOptions(_ call: RouteCall<EmptyPayload>) async throws -> PasskeyLoginOptions {
        let (challenge, hash) = WebAuthnRelyingParty.newChallenge()
        let id = try await store.openCeremony(.login, userId: nil, challengeHash: hash, now: clock.now())
        return PasskeyLoginOptions(challengeId: id, publicKey: relyingParty.requestOptions(challenge: challenge, allowing: []))
    }

    /// Every refusal is the same 401 (an unknown credential too), so the answer tells nothing
    /// about which passkeys exist; the log says what failed.
    @Sendable func login(_ call: RouteCall<PasskeyLoginRequest>) async throws -> StaffTokenResponse {
        let now = clock.now()
        do {
            guard let challengeHash = try await store.useCeremony(id: call.body.challengeId, .login, userId: nil, now: now) else {
                throw PasskeyProblem("the challenge is unknown, expired or already used")
            }
            let checked = try await assertions.check(call.body.credential, challengeHash: challengeHash, user: nil)
            guard try await store.database.transaction({ db in try await checked.record(now: now, on: db) }) else {
                throw PasskeyProblem("the sign counter did not move forward")
            }
            return try await issuer.signIn(userId: checked.passkey.userId, device: call.device, method: .passkey, factors: [.passkey])
        } catch let problem as PasskeyProblem {
            call.context.logger.info("Passkey sign-in refused: \(String(reflecting: problem.description))")
            throw APIError.passkeyInvalid
        }
    }
}
