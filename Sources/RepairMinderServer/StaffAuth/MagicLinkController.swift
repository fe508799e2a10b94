import Foundation
import RepairMinderModels

/// Staff sign-in with an emailed code instead of a password: docs/API.md §2.4–§2.5. For a user
/// with an authenticator app or passkeys the code stands in for the password only (§11.1).
struct MagicLinkController {
    let accounts: AccountStore
    let codes: EmailedCodes
    let secondFactor: SecondFactorChallenge
    let issuer: TokenIssuer
    let policies: SecurityPolicyStore

    func mount(on routes: RouteMounter) {
        routes.on(Routes.staffAuth.requestMagicLink, use: requestMagicLink)
        routes.on(Routes.staffAuth.verifyMagicLink, use: verifyMagicLink)
    }

    @Sendable func requestMagicLink(_ call: RouteCall<MagicLinkRequest>) async throws -> MessageResponse {
        let email = call.body.email
        let (accounts, policies) = (self.accounts, self.policies)
        try await codes.send(.staffMagicLink, to: email) { code, minutes, now in
            // Nothing is sent where the shop's policy turned magic links off (§13): the same answer.
            guard let user = try await accounts.user(email: email), user.canSignIn, user.magicLinkEnabled != 0,
                try await policies.current(companyId: user.companyId).allowMagicLink
            else { return nil }
            return CodeEmail.magicLink(to: user.email, code: code, validMinutes: minutes, now: now)
        }
        return MessageResponse(message: "Magic link sent")
    }

    @Sendable func verifyMagicLink(_ call: RouteCall<MagicLinkVerifyRequest>) async throws -> MagicLinkVerifyResponse {
        let email = call.body.email
        try await codes.consume(try await codes.match(.staffMagicLink, email: email, code: call.body.code))
        guard let user = try await accounts.user(email: email), user.magicLinkEnabled != 0,
            try await policies.current(companyId: user.companyId).allowMagicLink
        else { throw APIError.invalidOrExpiredCode }
        let factors = try await secondFactor.factors(ofUser: user.id)
        guard factors.acceptsEmailedCode else {
            try user.checkCanSignIn()
            return .secondFactorRequired(try await secondFactor.open(for: user, factors: factors, openedBy: .emailedCode, call))
        }
        return .signedIn(try await issuer.signIn(userId: user.id, device: call.device, method: .magicLink, factors: [.emailedCode]))
    }
}
