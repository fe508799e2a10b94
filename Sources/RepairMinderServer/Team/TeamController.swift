import Foundation
import RepairMinderModels

/// A shop's admins manage its members (docs/API.md §12): list, look at, change a role or the
/// names, switch off a leaver, end someone's sessions, reset the sign-in methods of someone who
/// lost their phone. The route table requires `users:manage` for each; every change is an
/// activity event of the member, naming the admin, written in the change's transaction.
struct TeamController {
    let database: Database
    let store: TeamStore
    let sessions: SessionStore
    let mail: MailQueue
    let clock: ServerClock

    func mount(on routes: RouteMounter) {
        routes.on(Routes.team.members, page: members)
        routes.on(Routes.team.member, use: member)
        routes.on(Routes.team.update, use: update)
        routes.on(Routes.team.deactivate, use: deactivate)
        routes.on(Routes.team.reactivate, use: reactivate)
        routes.on(Routes.team.archive, use: archive)
        routes.on(Routes.team.sessions, use: memberSessions)
        routes.on(Routes.team.signOut, use: signOut)
        routes.on(Routes.team.resetFactors, use: resetFactors)
        routes.on(Routes.team.activity, page: activity)
    }

    @Sendable func members(_ call: RouteCall<EmptyPayload>) async throws -> ([TeamMember], Pagination) {
        let staff = try call.staff
        let (page, limit) = try ActivityController.pageAndLimit(call)
        let status = try call.choice(.memberStatus).flatMap(TeamStore.StatusFilter.init(rawValue:)) ?? .all
        let query = call.text(.q)
        let (rows, total) = try await store.members(companyId: staff.company.id, status: status, query: query, page: page, limit: limit)
        let companyStatus = staff.company.companyStatus
        return (rows.map { $0.wire(companyStatus: companyStatus) }, .of(page: page, limit: limit, total: total))
    }

    @Sendable func member(_ call: RouteCall<EmptyPayload>) async throws -> TeamMember {
        let staff = try call.staff
        return try await store.member(id: try call.parameter("id"), companyId: staff.company.id).wire(companyStatus: staff.company.companyStatus)
    }

    /// A role change takes effect at once: the member's tokens that carry the old role are
    /// refused as expired (`StaffCallers`), and their refresh answers the new one.
    @Sendable func update(_ call: RouteCall<MemberUpdate>) async throws -> TeamMember {
        let staff = try call.staff, body = call.body, now = clock.now(), device = call.device
        let newRole = body.role.map(UserRole.init(rawValue:))
        let changed = try await store.change(try call.parameter("id"), by: staff, notOnYourself: false, now: now) { member, changing in
            let db = changing.db
            if let newRole, newRole != member.user.userRole {
                if member.user.id == staff.user.id { throw APIError.cannotChangeSelf }
                // No body gives `master_admin`, the only role the platform's company takes.
                if PlatformOwnCompany.contains(member.user.companyId) { throw APIError.platformCompanyTakesOnlyPlatformAdmins }
                if newRole != .admin { try await TeamStore.keepsAnAdmin(besides: member, on: db) }
                try await TeamStore.write(.init(role: newRole), of: member.user.id, on: db)
                if !newRole.may(.usersManage) { try await InvitationStore.revokeSent(by: member.user.id, now: now, on: db) }
                try await ActivityLog.record(
                    .roleChanged, userId: member.user.id, device: device, at: now, actor: staff,
                    detail: ["from": member.user.role, "to": newRole.rawValue], on: db)
            }
            // The other fields, each written and recorded when it changes what is stored.
            var fields = TeamStore.MemberFields(), changed: [String: String] = [:]
            if let firstName = body.firstName, firstName != member.user.firstName {
                fields.firstName = firstName
                changed["firstName"] = firstName
            }
            if let lastName = body.lastName, lastName != member.user.lastName {
                fields.lastName = lastName
                changed["lastName"] = lastName
            }
            if let enabled = body.magicLinkEnabled, enabled != (member.user.magicLinkEnabled != 0) {
                fields.magicLinkEnabled = enabled
                changed["magicLinkEnabled"] = String(enabled)
            }
            if !changed.isEmpty {
                try await TeamStore.write(fields, of: member.user.id, on: db)
                try await ActivityLog.record(.memberUpdated, userId: member.user.id, device: device, at: now, actor: staff, detail: changed, on: db)
            }
        }
        return changed.wire(companyStatus: staff.company.companyStatus)
    }

    /// A leaver: every session ends at once, and sign-in answers "Account is deactivated".
    @Sendable func deactivate(_ call: RouteCall<EmptyPayload>) async throws -> TeamMember {
        let staff = try call.staff, now = clock.now(), device = call.device
        return try await store.change(try call.parameter("id"), by: staff, notOnYourself: true, now: now) { member, changing in
            guard member.user.canSignIn else { return }
            try await TeamStore.keepsAnAdmin(besides: member, on: changing.db)
            try await TeamStore.setActive(false, userId: member.user.id, on: changing.db)
            try await InvitationStore.revokeSent(by: member.user.id, now: now, on: changing.db)
            try await changing.revokeAll(ofUser: member.user.id, reason: "user_deactivated", device: device, now: now)
            try await ActivityLog.record(.userDeactivated, userId: member.user.id, device: device, at: now, actor: staff, on: changing.db)
        }.wire(companyStatus: staff.company.companyStatus)
    }

    @Sendable func reactivate(_ call: RouteCall<EmptyPayload>) async throws -> TeamMember {
        let staff = try call.staff, now = clock.now(), device = call.device
        return try await store.change(try call.parameter("id"), by: staff, notOnYourself: true, now: now) { member, changing in
            guard member.user.archived == 0 else { throw APIError.validation("An archived member cannot be reactivated") }
            guard member.user.isActive == 0 else { return }
            try await TeamStore.setActive(true, userId: member.user.id, on: changing.db)
            try await ActivityLog.record(.userReactivated, userId: member.user.id, device: device, at: now, actor: staff, on: changing.db)
        }.wire(companyStatus: staff.company.companyStatus)
    }

    /// Final: the member can never sign in again, and the address stays taken.
    @Sendable func archive(_ call: RouteCall<EmptyPayload>) async throws -> TeamMember {
        let staff = try call.staff, now = clock.now(), device = call.device
        return try await store.change(try call.parameter("id"), by: staff, notOnYourself: true, now: now) { member, changing in
            guard member.user.archived == 0 else { return }
            try await TeamStore.keepsAnAdmin(besides: member, on: changing.db)
            try await TeamStore.archive(userId: member.user.id, on: changing.db)
            try await InvitationStore.revokeSent(by: member.user.id, now: now, on: changing.db)
            try await changing.revokeAll(ofUser: member.user.id, reason: "user_archived", device: device, now: now)
            try await ActivityLog.record(.userArchived, userId: member.user.id, device: device, at: now, actor: staff, on: changing.db)
        }.wire(companyStatus: staff.company.companyStatus)
    }

    /// A member's signed-in devices, newest first: what an admin looks at before signing them
    /// out (`current` marks the caller's own session, when the member is the caller).
    @Sendable func memberSessions(_ call: RouteCall<EmptyPayload>) async throws -> [SessionInfo] {
        let staff = try call.staff
        let member = try await store.member(id: try call.parameter("id"), companyId: staff.company.id)
        return try await sessions.liveInfo(userId: member.user.id, callerSession: staff.claims.sid, now: clock.now())
    }

    @Sendable func signOut(_ call: RouteCall<EmptyPayload>) async throws -> RevokedSessionsResponse {
        let staff = try call.staff, now = clock.now(), device = call.device
        let revoked = Counter()
        _ = try await store.change(try call.parameter("id"), by: staff, notOnYourself: false, now: now) { member, changing in
            revoked.value = try await changing.revokeAll(ofUser: member.user.id, reason: "signed_out_by_admin", device: device, now: now)
            try await ActivityLog.record(
                .sessionsRevokedByAdmin, userId: member.user.id, device: device, at: now, actor: staff, on: changing.db)
        }
        return RevokedSessionsResponse(revoked: revoked.value)
    }

    /// Someone who lost their phone: their authenticator app, recovery codes and passkeys go,
    /// their sessions end, and a mail tells them, so they sign in with their password and an
    /// emailed code and enrol again (docs/API.md §11.1's way out).
    @Sendable func resetFactors(_ call: RouteCall<EmptyPayload>) async throws -> TeamMember {
        let staff = try call.staff, now = clock.now(), device = call.device, mail = self.mail
        let changed = try await store.change(try call.parameter("id"), by: staff, notOnYourself: true, now: now) { member, changing in
            let db = changing.db, id = member.user.id
            try await TeamStore.removeFactors(userId: id, on: db)
            try await changing.revokeAll(ofUser: id, reason: "factors_reset", device: device, now: now)
            try await ActivityLog.record(.factorsReset, userId: id, device: device, at: now, actor: staff, on: db)
            try await mail.seal(TeamEmail.factorsReset(to: member.user.email, shop: staff.company.name, now: now), now: now)
                .enqueue(on: db)
        }
        mail.deliverSoon()
        return changed.wire(companyStatus: staff.company.companyStatus)
    }

    @Sendable func activity(_ call: RouteCall<EmptyPayload>) async throws -> ([ActivityEvent], Pagination) {
        let staff = try call.staff
        let member = try await store.member(id: try call.parameter("id"), companyId: staff.company.id)
        let (page, limit) = try ActivityController.pageAndLimit(call)
        let (rows, total) = try await ActivityLog.page(userId: member.user.id, page: page, limit: limit, in: database)
        return (rows.map(\.wire), .of(page: page, limit: limit, total: total))
    }

    /// A count set inside a transaction's closure.
    private final class Counter: @unchecked Sendable {
        var value = 0
    }
}
