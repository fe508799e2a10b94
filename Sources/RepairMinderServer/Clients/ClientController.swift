import Foundation
import Hummingbird
import RepairMinderModels

/// A shop's staff manage its customers (docs/API.md §14); the route table requires
/// `clients:read` or `clients:write` of each route.
struct ClientController {
    let store: ClientStore
    let portal: ClientPortal
    let clock: ServerClock

    func mount(on routes: RouteMounter) {
        routes.on(Routes.clients.list, page: list)
        routes.on(Routes.clients.search, use: search)
        routes.on(Routes.clients.create, use: create)
        routes.on(Routes.clients.export, respond: export)
        routes.on(Routes.clients.import, use: importFile)
        routes.on(Routes.clients.detail, use: detail)
        routes.on(Routes.clients.update, use: update)
        routes.on(Routes.clients.delete, use: delete)
        routes.on(Routes.clients.portalInvite, use: invite)
        routes.on(Routes.clients.sessions, use: sessions)
        routes.on(Routes.clients.signOut, use: signOut)
    }

    @Sendable func list(_ call: RouteCall<EmptyPayload>) async throws -> ([ShopClient], Pagination) {
        let (page, limit) = try ActivityController.pageAndLimit(call)
        // `search` is seed 004's name for it, which clients written against the backend send.
        let query = call.text(.q) ?? call.text(.search)
        let order = try call.choice(.clientSort).flatMap(ClientStore.Order.init(rawValue:)) ?? .newestFirst
        let (rows, total) = try await store.page(companyId: try call.staff.company.id, query: query, order: order, page: page, limit: limit)
        return (rows.map(\.shopWire), .of(page: page, limit: limit, total: total))
    }

    @Sendable func search(_ call: RouteCall<EmptyPayload>) async throws -> [ShopClient] {
        let query = call.text(.q) ?? ""
        let limit = try call.query(.searchLimit) ?? 10
        return try await store.search(companyId: try call.staff.company.id, query: query, limit: limit).map(\.shopWire)
    }

    @Sendable func create(_ call: RouteCall<ClientCreateRequest>) async throws -> ShopClient {
        try await store.create(call.body, by: try call.staff, device: call.device, now: clock.now()).shopWire
    }

    /// Recorded (`clients_exported`) before the first row leaves: a bulk read of personal data
    /// is an event even when the download breaks off.
    @Sendable func export(_ call: RouteCall<EmptyPayload>) async throws -> Response {
        let staff = try call.staff
        try await store.database.withConnection { db in
            try await ActivityLog.record(.clientsExported, userId: staff.user.id, device: call.device, at: clock.now(), actor: staff, on: db)
        }
        return ClientExport(database: store.database).response(companyId: staff.company.id)
    }

    @Sendable func importFile(_ call: RouteCall<CSVFile>) async throws -> ClientImportReport {
        let options = ClientImport.Options(dryRun: try call.choice(.dryRun) == "true", partial: try call.choice(.partial) == "true")
        return try await ClientImport(database: store.database).run(
            call.body, options: options, by: try call.staff, device: call.device, now: clock.now())
    }

    @Sendable func detail(_ call: RouteCall<EmptyPayload>) async throws -> ShopClient {
        try await store.client(id: try call.parameter("id"), companyId: try call.staff.company.id).shopWire
    }

    @Sendable func update(_ call: RouteCall<ClientUpdateRequest>) async throws -> ShopClient {
        try await store.update(id: try call.parameter("id"), call.body, by: try call.staff, device: call.device, now: clock.now()).shopWire
    }

    @Sendable func delete(_ call: RouteCall<EmptyPayload>) async throws -> EmptyPayload {
        try await store.delete(id: try call.parameter("id"), by: try call.staff, device: call.device, now: clock.now())
        return EmptyPayload()
    }

    @Sendable func invite(_ call: RouteCall<EmptyPayload>) async throws -> MessageResponse {
        try await portal.invite(clientId: try call.parameter("id"), call: call, now: clock.now())
    }

    @Sendable func sessions(_ call: RouteCall<EmptyPayload>) async throws -> [ClientSession] {
        try await portal.sessions(clientId: try call.parameter("id"), companyId: try call.staff.company.id, now: clock.now())
    }

    @Sendable func signOut(_ call: RouteCall<EmptyPayload>) async throws -> RevokedSessionsResponse {
        RevokedSessionsResponse(
            revoked: try await portal.signOut(clientId: try call.parameter("id"), by: try call.staff, device: call.device, now: clock.now()))
    }
}
