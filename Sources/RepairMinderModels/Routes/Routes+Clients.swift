/// A shop's customers (docs/API.md §14, seed 004's paths): `clients:read` to read,
/// `clients:write` to change; another shop's client is 404; not in quarantine.
extension Routes {
    public struct Clients: RouteFeature {
        public static let name = "Clients"
        public let list = Route<EmptyPayload, [ShopClient]>(
            .get, "/api/clients", .staff, "The shop's clients, newest first or by name", permission: .clientsRead,
            format: .paginatedEnvelope, query: [.page, .limit, .q, .search, .clientSort])
        public let search = Route<EmptyPayload, [ShopClient]>(
            .get, "/api/clients/search", .staff, "Up to `limit` clients whose email, names or phone digits start with `q`",
            permission: .clientsRead, query: [.q, .searchLimit])
        public let create = Route<ClientCreateRequest, ShopClient>(
            .post, "/api/clients", .staff, "Add a client", permission: .clientsWrite, successStatus: 201,
            failures: [.clientExists])
        public let export = Route<EmptyPayload, BinaryFile>(
            .get, "/api/clients/export", .staff, "Every client of the shop as CSV (RFC 4180, UTF-8)", permission: .clientsRead,
            format: .binary(["text/csv"]))
        public let `import` = Route<CSVFile, ClientImportReport>(
            .post, "/api/clients/import", .staff, "Add and update clients from a CSV file, all or nothing unless `partial`",
            permission: .clientsWrite, query: [.dryRun, .partial],
            inputRuleBeyondSchema: "The file's first line names its columns (email required; first_name, last_name, phone, notes, created_at), at most 50,000 rows; each row's refusals are reported, not answered as 400",
            failures: [.validationError, .payloadTooLarge, .unsupportedMediaType])
        public let detail = Route<EmptyPayload, ShopClient>(
            .get, "/api/clients/{id}", .staff, "One client", permission: .clientsRead, failures: [.notFound])
        public let update = Route<ClientUpdateRequest, ShopClient>(
            .patch, "/api/clients/{id}", .staff, "Change a client", permission: .clientsWrite,
            failures: [.notFound, .clientExists])
        public let delete = Route<EmptyPayload, EmptyPayload>(
            .delete, "/api/clients/{id}", .staff, "Delete a client: their portal sessions with the shop end at once",
            permission: .clientsWrite, failures: [.notFound])
        public let portalInvite = Route<EmptyPayload, MessageResponse>(
            .post, "/api/clients/{id}/portal-invite", .staff, "Email the client an invitation to follow their repairs",
            permission: .clientsWrite, budgets: [.portalInvitesPerShop, .portalInvitesPerClient],
            failures: [.notFound, .clientPortalDisabled])
        public let sessions = Route<EmptyPayload, [ClientSession]>(
            .get, "/api/clients/{id}/sessions", .staff, "The client's live portal sessions with the shop", permission: .clientsRead,
            failures: [.notFound])
        public let signOut = Route<EmptyPayload, RevokedSessionsResponse>(
            .post, "/api/clients/{id}/sign-out", .staff, "End every portal session of the client with the shop",
            permission: .clientsWrite, failures: [.notFound])
    }
    /// Clients: the routes of this feature.
    public static let clients = Clients()
}
