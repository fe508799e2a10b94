import Foundation
import RepairMinderModels

/// `GET`/`PUT /api/company/security-policy` (docs/API.md §13.1): any member reads the shop's
/// policy; its admins (`company:manage`, from the route table) change it.
struct SecurityPolicyController {
    let store: SecurityPolicyStore
    let settings: ServerSettings
    let clock: ServerClock

    func mount(on routes: RouteMounter) {
        routes.on(Routes.securityPolicy.policy, use: policy)
        routes.on(Routes.securityPolicy.update, use: update)
    }

    @Sendable func policy(_ call: RouteCall<EmptyPayload>) async throws -> SecurityPolicy {
        let (policy, updatedBy) = try await store.policy(companyId: try call.staff.company.id)
        return policy.wire(settings: settings, updatedBy: updatedBy)
    }

    @Sendable func update(_ call: RouteCall<SecurityPolicyUpdate>) async throws -> SecurityPolicy {
        let staff = try call.staff
        // The rule beyond the schema: a shop may shorten the server's lifetimes, never lengthen them.
        for (name, days, isMobile) in [
            ("web", call.body.sessionMaxLifetimeDays?.web, false), ("mobile", call.body.sessionMaxLifetimeDays?.mobile, true),
        ] {
            let most = ShopPolicy.serverDays(isMobile: isMobile, settings: settings)
            if let days, days > most {
                throw APIError.validation("sessionMaxLifetimeDays.\(name) must be at most \(most), the server's own lifetime in days")
            }
        }
        let (policy, updatedBy) = try await store.change(call.body, by: staff, device: call.device, now: clock.now())
        return policy.wire(settings: settings, updatedBy: updatedBy)
    }
}
