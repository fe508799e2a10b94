import Foundation
import RepairMinderModels

/// Staff sign-in with an emailed code instead of a password: docs/API.md §2.4–§2.5.
struct MagicLinkController {
    let accounts: AccountStore
    let codes: EmailedCodes
    let issuer: TokenIssuer

    func mount(on routes: RouteMounter) {
        routes.on(Routes.StaffAuth.requestMagicLink, use: requestMagicLink)
        routes.on(Routes.StaffAuth.verifyMagicLink, use: verifyMagicLink)
    }

    @Sendable func requestMagicLink(_ call: RouteCall<MagicLinkRequest>) async throws -> MessageResponse {
        let email = call.body.email
        let accounts = self.accounts
        try await codes.send(.staffMagicLink, to: email) { code, minutes, now in
            guard let user = try await accounts.user(email: email), user.canSignIn, user.magicLinkEnabled != 0 else {
                return nil
            }
            return CodeEmail.magicLink(to: user.email, code: code, validMinutes: minutes, now: now)
        }
        return MessageResponse(message: "Magic link sent")
    }

    @Sendable func verifyMagicLink(_ call: RouteCall<MagicLinkVerifyRequest>) async throws -> StaffTokenResponse {
        let email = call.body.email
        try await codes.consume(try await codes.match(.staffMagicLink, email: email, code: call.body.code))
        guard let user = try await accounts.user(email: email), user.magicLinkEnabled != 0 else {
            throw APIError.invalidOrExpiredCode
        }
        return try await issuer.signIn(userId: user.id, device: call.device, method: .magicLink)
    }
}
