import Foundation
import RepairMinderModels

/// `GET /api/auth/activity`: the caller's own security events, newest first (docs/API.md §9.4).
struct ActivityController {
    let database: Database

    static let defaultLimit = 20
    static let maximumLimit = 100

    func mount(on routes: RouteMounter) {
        routes.on(Routes.accountLifecycle.activity, page: activity)
    }

    @Sendable func activity(_ call: RouteCall<EmptyPayload>) async throws -> ([ActivityEvent], Pagination) {
        let staff = try call.staff
        let (page, limit) = try Self.pageAndLimit(call)
        let (rows, total) = try await ActivityLog.page(userId: staff.user.id, page: page, limit: limit, in: database)
        return (rows.map(\.wire), .of(page: page, limit: limit, total: total))
    }

    /// A list's `page` (1 when absent) and `limit` (20 when absent, at most 100).
    static func pageAndLimit(_ call: RouteCall<some Sendable>) throws -> (page: Int, limit: Int) {
        (try call.query(.page) ?? 1, min(try call.query(.limit) ?? defaultLimit, maximumLimit))
    }
}
