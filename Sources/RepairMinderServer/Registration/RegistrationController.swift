import Foundation
import RepairMinderModels

/// Shop registration: register → emailed code → verify creates the shop, pending approval,
/// with its admin, and signs them in (quarantined until an operator approves): docs/API.md §9.1.
struct RegistrationController {
    let database: Database
    let clock: ServerClock
    let accounts: AccountStore
    let store: RegistrationStore
    let hasher: PasswordHasher
    let policy: PasswordPolicy
    let codes: EmailedCodes
    let mail: MailQueue
    let issuer: TokenIssuer

    func mount(on routes: RouteMounter) {
        routes.on(Routes.accountLifecycle.register, use: register)
        routes.on(Routes.accountLifecycle.verifyRegistration, use: verify)
    }

    /// The same answer whether or not the email has an account, and about the same time (the
    /// password is hashed either way): a new address gets a code, a taken one a mail without one.
    @Sendable func register(_ call: RouteCall<RegisterRequest>) async throws -> MessageResponse {
        let body = call.body
        try policy.check(body.password, email: body.email)
        if try await store.companyExists(named: body.companyName) { throw APIError.companyNameTaken }
        let hash = try await hasher.hash(body.password)
        let accounts = self.accounts, mail = self.mail
        let pending = PendingRegistration(
            email: body.email, companyName: body.companyName, firstName: body.firstName, lastName: body.lastName,
            passwordHash: hash)
        // Spent once the request is known to be sendable: a weak password or a taken shop name
        // does not hold the address's next try back by the resend interval.
        try await call.spend(.codeEmails, key: body.email)
        try await codes.send(.registration, to: body.email, alongside: { now, db in
            try await RegistrationStore.save(pending, now: now, on: db)
        }) { code, minutes, now in
            guard try await accounts.user(email: body.email) == nil else {
                try await mail.send(CodeEmail.accountExists(to: body.email, now: now), now: now)
                return nil
            }
            return CodeEmail.registration(to: body.email, code: code, companyName: body.companyName, validMinutes: minutes, now: now)
        }
        return MessageResponse(message: "Check your email for a code to finish registration")
    }

    /// Uses the code, creates the shop and its admin in one transaction, then signs in.
    @Sendable func verify(_ call: RouteCall<RegisterVerifyRequest>) async throws -> StaffTokenResponse {
        let matched = try await codes.match(.registration, email: call.body.email, code: call.body.code)
        let now = clock.now(), codes = self.codes, device = call.device, email = call.body.email
        let userId = try await database.transaction { db in
            guard try await codes.consume(matched, now: now, on: db),
                let pending = try await RegistrationStore.take(email: email, on: db)
            else { throw APIError.invalidOrExpiredCode }
            let userId = try await RegistrationStore.createShop(pending, now: now, on: db)
            try await ActivityLog.record(.registered, userId: userId, device: device, at: now, on: db)
            return userId
        }
        return try await issuer.signIn(userId: userId, device: device, method: .registration, factors: [.emailedCode])
    }
}
