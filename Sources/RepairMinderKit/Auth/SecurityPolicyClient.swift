import Foundation
import RepairMinderModels

/// A shop's security policy (docs/API.md §13): what its staff must enrol to sign in, whether a
/// magic link signs them in, and how long their sessions last. Any staff member reads it; only
/// an admin changes it (`company:manage`, `UserRole.may`): another role gets `APIError.server`
/// with `FORBIDDEN`. A session restricted to enrolment can do neither
/// (`APIError.enrolmentRequired`).
public struct SecurityPolicyClient: Sendable {
    public let api: APIClient

    public init(api: APIClient) { self.api = api }

    /// The policy as it is now; a shop that never set one answers the defaults (nothing
    /// required, magic links allowed, 7 days' grace, the server's own session lifetimes).
    public func policy() async throws -> SecurityPolicy {
        try await api.send(Routes.securityPolicy.policy)
    }

    /// Changes the fields `change` names (the others keep their value) and returns the policy.
    /// A tightening reaches every session of the shop at its next refresh. A value out of range
    /// (grace beyond 30 days, a lifetime beyond the server's own) is `APIError.server` with
    /// `VALIDATION_ERROR` and the server's words naming the field.
    @discardableResult
    public func update(_ change: SecurityPolicyUpdate) async throws -> SecurityPolicy {
        try await api.send(Routes.securityPolicy.update, change)
    }
}
