/// A shop's customers (docs/API.md §14, seed 004's paths): `clients:read` to read,
/// `clients:write` to change; another shop's client is 404; not in quarantine.
extension Routes {
    public struct Clients: RouteFeature {
        public static let name = "Clients"
        public let list = Route<EmptyPayload, [ShopClient]>(
            .get, "/api/clients", .staff, "The shop's clients, newest first", permission: .clientsRead,
            format: .paginatedEnvelope, query: [.page, .limit, .q, .search])
        public let search = Route<EmptyPayload, [ShopClient]>(
            .get, "/api/clients/search", .staff, "Up to `limit` clients whose email, names or phone digits start with `q`",
            permission: .clientsRead, query: [.q, .searchLimit])
        public let create = Route<ClientCreateRequest, ShopClient>(
            .post, "/api/clients", .staff, "Add a client", permission: .clientsWrite, successStatus: 201,
            failures: [.init(409, .clientExists)])
        public let detail = Route<EmptyPayload, ShopClient>(
            .get, "/api/clients/{id}", .staff, "One client", permission: .clientsRead, failures: [.init(404, .notFound)])
        public let update = Route<ClientUpdateRequest, ShopClient>(
            .patch, "/api/clients/{id}", .staff, "Change a client", permission: .clientsWrite,
            failures: [.init(404, .notFound), .init(409, .clientExists)])
        public let delete = Route<EmptyPayload, EmptyPayload>(
            .delete, "/api/clients/{id}", .staff, "Delete a client: their portal sessions with the shop end at once",
            permission: .clientsWrite, failures: [.init(404, .notFound)])
        public let export = catalogue(.get, "/api/clients/export", "Export clients")
        public let `import` = catalogue(.post, "/api/clients/import", "Import clients", JSONValue.self)
    }
    /// Clients: the routes of this feature.
    public static let clients = Clients()
}
