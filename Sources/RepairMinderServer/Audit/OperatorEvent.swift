import Foundation
import RepairMinderModels
import SQLKit

/// What an operator did to a shop or a staff account with `repairminder company ...`,
/// `repairminder seed` or `repairminder admin create` (or an account's owner, deleting it),
/// recorded in the activity log beside the staff's own events with the actor (the OS user). They are in `repairminder audit` only, never in a user's
/// `GET /api/auth/activity`, whose event types are a published list (docs/API.md §9.4).
public enum OperatorEventType: String, Sendable, CaseIterable {
    /// A registration was approved: pending_approval → active.
    case companyApproved = "company_approved"
    /// The shop was taken out of service.
    case companySuspended = "company_suspended"
    /// A suspended shop was put back in service: suspended → active.
    case companyReactivated = "company_reactivated"
    /// Any other change of status (none of today's commands makes one).
    case companyStatusChanged = "company_status_changed"
    /// `repairminder seed` created a shop, or changed one of its fields.
    case companyCreated = "company_created"
    case companyUpdated = "company_updated"
    /// `repairminder seed` created a staff account, or changed it (its password, `isActive`, role...).
    case userCreated = "user_created"
    case userUpdated = "user_updated"
    /// `repairminder admin create` invited a platform administrator (`detail: {"email"}`).
    case platformAdminInvited = "platform_admin_invited"
    /// `repairminder admin create --reissue` revoked a pending invitation to send a new one (`detail: {"email"}`).
    case platformAdminInvitationRevoked = "platform_admin_invitation_revoked"
    /// A staff member deleted their own account (docs/API.md §9.5; `actor` "account owner").
    case accountDeleted = "account_deleted"
    /// A customer deleted their account: the shop's client record became anonymous (`detail: {"clientId"}`).
    case customerAccountDeleted = "customer_account_deleted"
    /// A connected app was registered, changed, deleted, or given a new secret (docs/API.md
    /// §16.1; `detail: {"clientId", "name"}`, and the changed fields' names for a change).
    case appRegistered = "app_registered"
    case appUpdated = "app_updated"
    case appDeleted = "app_deleted"
    case appSecretRotated = "app_secret_rotated"

    /// The event a change of a shop's status from `before` to `after` is.
    public static func statusChange(from before: String, to after: CompanyStatus) -> OperatorEventType {
        switch after {
        case .active: before == CompanyStatus.pendingApproval.rawValue ? .companyApproved : .companyReactivated
        case .suspended: .companySuspended
        case .pendingApproval, .unknown: .companyStatusChanged
        }
    }
}

extension ActivityLog {
    /// Records an operator's `type` on `companyId` (and `userId`, for a staff account), done by
    /// `actor` (the OS user, or a platform administrator's address with their `actorUserId`),
    /// `detail` saying what it concerned, on the connection (the transaction) that makes the
    /// change, so the event exists exactly when the change commits.
    static func record(
        _ type: OperatorEventType, companyId: String, userId: String? = nil, actor: String, actorUserId: String? = nil, at now: Double,
        detail: [String: String]? = nil, on db: any SQLDatabase
    ) async throws {
        let encodedDetail = try detail.map(ActivityLog.detailJSON)
        try await db.raw(
            """
            INSERT INTO activity_log (id, user_id, company_id, actor, actor_user_id, type, at, detail)
            VALUES (\(bind: OrderedID.next()), \(bind: userId), \(bind: companyId), \(bind: actor), \(bind: actorUserId),
                \(bind: type.rawValue), \(bind: now), \(bind: encodedDetail))
            """
        ).run()
    }
}
