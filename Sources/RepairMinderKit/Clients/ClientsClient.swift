import Foundation
import RepairMinderModels

/// A shop's customers, for its staff (docs/API.md §14): the records, their portal access and
/// their sessions. Reading needs `clients:read` and changing `clients:write` (`UserRole.may`:
/// office, admin and master_admin); an engineer gets `APIError.server` with `FORBIDDEN`, and
/// another shop's client id is `NOT_FOUND`, as an unknown one. The CSV import and export are in
/// `ClientsClient+CSV.swift`.
public struct ClientsClient: Sendable {
    public let api: APIClient

    public init(api: APIClient) { self.api = api }

    /// The order of a list.
    public enum Order: String, Sendable, CaseIterable {
        /// Newest first (the server's default).
        case newest = "-created_at"
        /// By name, A to Z.
        case name
    }

    /// Page `page` of the shop's clients, `limit` long (the server's default, 20, when nil; at
    /// most 100), in `sort` order; `query` keeps the clients whose address, first or last name
    /// starts with it (case-insensitively). `api.nextPage(after:of:)` with `Routes.clients.list`,
    /// or `nextPage(after:)`, gets the next.
    public func list(page: Int = 1, limit: Int? = nil, query: String? = nil, sort: Order = .newest) async throws -> Page<ShopClient> {
        var filters = [QueryParameter.clientSort.name: sort.rawValue]
        if let query, !query.isEmpty { filters[QueryParameter.q.name] = query }
        return try await api.page(Routes.clients.list, page: page, limit: limit, filters: filters)
    }

    /// The page after `previous` with the same size, text and order; nil after the last one.
    public func nextPage(after previous: Page<ShopClient>) async throws -> Page<ShopClient>? {
        try await api.nextPage(after: previous, of: Routes.clients.list)
    }

    /// Up to `limit` (1 to 10; the server's 10 when nil) best matches for a booking form's
    /// type-ahead: clients whose address, first or last name starts with `text`, or whose
    /// phone's digits start with its digits.
    public func search(_ text: String, limit: Int? = nil) async throws -> [ShopClient] {
        var query = [URLQueryItem(name: QueryParameter.q.name, value: text)]
        if let limit { query.append(URLQueryItem(name: QueryParameter.searchLimit.name, value: String(limit))) }
        return try await api.send(Routes.clients.search, query: query)
    }

    /// Adds a client. An address that is already a live client of the shop (whatever its case)
    /// throws `APIError.clientExists` with the existing client's id; a field the rules refuse is
    /// `APIError.server` with `VALIDATION_ERROR` and the server's words naming it.
    public func create(_ client: ClientCreateRequest) async throws -> ShopClient {
        try await api.send(Routes.clients.create, client)
    }

    /// One client by id.
    public func client(id: String) async throws -> ShopClient {
        try await api.send(Routes.clients.detail, path: [id])
    }

    /// Changes the fields `change` names (the others keep their value) and returns the record.
    /// `portalEnabled: false` keeps the record but ends the client's portal: their sessions with
    /// the shop end at once and they can no longer sign in to it. An address another live
    /// client has throws `APIError.clientExists`.
    public func update(id: String, _ change: ClientUpdateRequest) async throws -> ShopClient {
        try await api.send(Routes.clients.update, change, path: [id])
    }

    /// Deletes a client (softly): their portal sessions with the shop end at once, they can no
    /// longer sign in to it, and the address may be added again later. Their other shops are
    /// untouched.
    public func delete(id: String) async throws {
        _ = try await api.send(Routes.clients.delete, path: [id])
    }

    /// Emails the client an invitation to follow their repairs in the portal (the shop's name
    /// and a sign-in link); the server's acknowledgement. At most one a minute per client and
    /// 200 a day per shop (`APIError.rateLimited` with the seconds to wait); a client whose
    /// portal is switched off is 409 `CLIENT_PORTAL_DISABLED`.
    @discardableResult
    public func invite(id: String) async throws -> MessageResponse {
        try await api.send(Routes.clients.portalInvite, path: [id])
    }

    /// The client's live portal sessions with the shop.
    public func sessions(id: String) async throws -> [ClientSession] {
        try await api.send(Routes.clients.sessions, path: [id])
    }

    /// Ends every portal session of the client with the shop (a shared tablet in the shop);
    /// how many ended.
    @discardableResult
    public func signOut(id: String) async throws -> Int {
        try await api.send(Routes.clients.signOut, path: [id]).revoked
    }
}
