import Foundation
import RepairMinderModels
import SQLKit

/// What an operator did to a shop with `repairminder company ...`, recorded in the activity log
/// beside the staff's own events. These concern a company, not a staff member, so they are in
/// `repairminder audit` only, never in a user's `GET /api/auth/activity` (docs/API.md §9.4).
public enum OperatorEventType: String, Sendable, CaseIterable {
    /// A registration was approved: pending_approval → active.
    case companyApproved = "company_approved"
    /// The shop was taken out of service.
    case companySuspended = "company_suspended"
    /// A suspended shop was put back in service: suspended → active.
    case companyReactivated = "company_reactivated"
    /// Any other change of status (none of today's commands makes one).
    case companyStatusChanged = "company_status_changed"

    /// The event a change of a shop's status from `before` to `after` is.
    public static func statusChange(from before: String, to after: CompanyStatus) -> OperatorEventType {
        switch after {
        case .active: before == CompanyStatus.pendingApproval.rawValue ? .companyApproved : .companyReactivated
        case .suspended: .companySuspended
        case .pendingApproval: .companyStatusChanged
        }
    }
}

extension ActivityLog {
    /// Records an operator's `type` on `companyId`, done by `actor` (the OS user), on the
    /// connection (the transaction) that makes the change, so the event exists exactly when
    /// the change commits.
    static func record(_ type: OperatorEventType, companyId: String, actor: String, at now: Double, on db: any SQLDatabase) async throws {
        try await db.raw(
            """
            INSERT INTO activity_log (id, company_id, actor, type, at)
            VALUES (\(bind: OrderedID.next()), \(bind: companyId), \(bind: actor), \(bind: type.rawValue), \(bind: now))
            """
        ).run()
    }
}
