import Foundation
import RepairMinderModels

/// One page of a paginated list (docs/API.md §1's `pagination`), and what it takes to ask for
/// the next: `APIClient.nextPage(after:)`.
public struct Page<Item: Sendable>: Sendable {
    public let items: [Item]
    public let pagination: Pagination
    /// The request that got this page, for the next one.
    let request: PageRequest

    /// Whether there are pages after this one.
    public var hasNextPage: Bool { pagination.page < pagination.totalPages }
    /// The number of the next page, if there is one.
    public var nextPageNumber: Int? { hasNextPage ? pagination.page + 1 : nil }

    /// The same page with its items transformed (decoded into an app's models, say).
    public func map<Other: Sendable>(_ transform: (Item) throws -> Other) rethrows -> Page<Other> {
        Page<Other>(items: try items.map(transform), pagination: pagination, request: request)
    }
}

/// What asked for a page: path values, page size and filters.
struct PageRequest: Sendable {
    let path: [String]
    let limit: Int?
    let filters: [String: String]

    /// The query of page `number`: `page`, `limit` and the filters, in a stable order. A filter
    /// the route does not take is refused before anything is sent.
    func query(page number: Int, allowed: [QueryParameter]) throws -> [URLQueryItem] {
        let names = Set(allowed.map(\.name))
        if let unknown = filters.keys.sorted().first(where: { !names.contains($0) || $0 == "page" || $0 == "limit" }) {
            throw APIError.invalidRequest("the route takes no filter \"\(unknown)\" (it takes \(names.sorted().joined(separator: ", ")))")
        }
        var items = [URLQueryItem(name: "page", value: String(number))]
        if let limit { items.append(URLQueryItem(name: "limit", value: String(limit))) }
        items += filters.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        return items
    }
}

/// `{"success": true, "data": [...], "pagination": {...}}` for decoding.
struct PageEnvelope<Item: Decodable>: Decodable {
    let data: [Item]
    let pagination: Pagination
}
