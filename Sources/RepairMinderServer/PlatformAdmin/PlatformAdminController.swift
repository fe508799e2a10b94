import Foundation
import RepairMinderModels

/// The platform's administrators manage its shops (docs/API.md §15); the route table requires
/// `companies:manage` (`master_admin`) of each route.
struct PlatformAdminController {
    let administration: PlatformAdministration
    let users: PlatformUsers
    let audit: PlatformAudit
    /// The database whose mail queue `mailHealth` reads: every instance's queue.
    let database: Database
    let clock: ServerClock

    func mount(on routes: RouteMounter) {
        routes.on(Routes.platformAdmin.companies, page: companies)
        routes.on(Routes.platformAdmin.company, use: company)
        routes.on(Routes.platformAdmin.approve) { try await apply(.approve, $0) }
        routes.on(Routes.platformAdmin.suspend) { try await apply(.suspend, $0) }
        routes.on(Routes.platformAdmin.reactivate) { try await apply(.reactivate, $0) }
        routes.on(Routes.platformAdmin.users, page: listUsers)
        routes.on(Routes.platformAdmin.signOutUser, use: signOutUser)
        routes.on(Routes.platformAdmin.audit, page: listAudit)
        routes.on(Routes.platformAdmin.mail, use: mailHealth)
    }

    @Sendable func mailHealth(_ call: RouteCall<EmptyPayload>) async throws -> MailQueueHealth {
        try await MailQueue.health(in: database, now: clock.now())
    }

    @Sendable func listAudit(_ call: RouteCall<EmptyPayload>) async throws -> ([PlatformAuditEvent], Pagination) {
        let (page, limit) = try ActivityController.pageAndLimit(call)
        var filter = PlatformAudit.Filter(companyId: call.text(.companyId), type: call.text(.eventType))
        if let since = call.text(.since), !since.isEmpty {
            guard let date = Timestamp.date(iso8601: since) else {
                throw APIError.validation("since must be an ISO 8601 instant, e.g. 2026-11-26T09:00:00Z")
            }
            filter.since = date.timeIntervalSince1970
        }
        if filter.companyId?.isEmpty == true { filter.companyId = nil }
        if filter.type?.isEmpty == true { filter.type = nil }
        let (rows, total) = try await audit.page(filter, page: page, limit: limit)
        return (rows, .of(page: page, limit: limit, total: total))
    }

    @Sendable func listUsers(_ call: RouteCall<EmptyPayload>) async throws -> ([PlatformUser], Pagination) {
        let (page, limit) = try ActivityController.pageAndLimit(call)
        let (rows, total) = try await users.page(query: call.text(.q), companyId: call.text(.staffOfCompany), page: page, limit: limit)
        return (rows, .of(page: page, limit: limit, total: total))
    }

    @Sendable func signOutUser(_ call: RouteCall<EmptyPayload>) async throws -> RevokedSessionsResponse {
        RevokedSessionsResponse(
            revoked: try await users.signOut(try call.parameter("id"), by: try call.staff, device: call.device, now: clock.now()))
    }

    @Sendable func companies(_ call: RouteCall<EmptyPayload>) async throws -> ([PlatformCompany], Pagination) {
        let (page, limit) = try ActivityController.pageAndLimit(call)
        let status = try call.choice(.companyStatus).flatMap { $0 == "all" ? nil : CompanyStatus(rawValue: $0) }
        let (rows, total) = try await administration.page(status: status, query: call.text(.q), page: page, limit: limit)
        return (rows, .of(page: page, limit: limit, total: total))
    }

    @Sendable func company(_ call: RouteCall<EmptyPayload>) async throws -> PlatformCompany {
        guard let company = try await administration.company(id: try call.parameter("id")) else { throw APIError.notFound }
        return company
    }

    @Sendable func apply(_ transition: PlatformAdministration.Transition, _ call: RouteCall<EmptyPayload>) async throws -> PlatformCompany {
        try await administration.apply(transition, to: try call.parameter("id"), by: try call.staff, now: clock.now())
    }
}
