/// The `pagination` object of list responses. The backend sends `total_pages` on some
/// endpoints and `totalPages` on others (seed 004, which spells the clients' list camelCase):
/// either decodes, and both are encoded, so a client written for either endpoint reads every list.
public struct Pagination: Codable, Sendable, Equatable {
    public var page: Int
    public var limit: Int
    public var total: Int
    public var totalPages: Int

    public init(page: Int, limit: Int, total: Int, totalPages: Int) {
        self.page = page
        self.limit = limit
        self.total = total
        self.totalPages = totalPages
    }

    enum CodingKeys: String, CodingKey {
        case page, limit, total
        case totalPages = "total_pages"
        case totalPagesCamel = "totalPages"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        page = try c.decode(Int.self, forKey: .page)
        limit = try c.decode(Int.self, forKey: .limit)
        total = try c.decode(Int.self, forKey: .total)
        if let pages = try c.decodeIfPresent(Int.self, forKey: .totalPages) {
            totalPages = pages
        } else if let pages = try c.decodeIfPresent(Int.self, forKey: .totalPagesCamel) {
            totalPages = pages
        } else {
            // Neither spelling: derive it rather than fail the whole list.
            totalPages = limit > 0 ? (total + limit - 1) / limit : 0
        }
    }
}

extension Pagination: WireObject {
    public static let fields: [ResponseField<Self>] = [
        .init("page", \.page, .integer(minimum: 1)),
        .init("limit", \.limit, .integer(minimum: 1)),
        .init("total", \.total, .integer(minimum: 0)),
        .init("total_pages", \.totalPages, .integer(minimum: 0)),
        .init("totalPages", \.totalPages, .integer(minimum: 0)),
    ]
    public static var schema: JSONSchema { .object(fields) }
    public static var example: Pagination { Pagination(page: 1, limit: 20, total: 100, totalPages: 5) }
}

extension Pagination {
    /// Page `page` of `limit` items of `total`.
    public static func of(page: Int, limit: Int, total: Int) -> Pagination {
        Pagination(page: page, limit: limit, total: total, totalPages: (total + limit - 1) / limit)
    }
}
