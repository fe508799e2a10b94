import Foundation
import Hummingbird
import RepairMinderModels

/// What a page needs beyond `Console.call` to stand for an API request exactly: the query
/// parameters that request would carry, an answer that is not JSON (a download), and whether
/// the visitor may use a route at all (to offer its form only to those who may).
extension ConsolePageRequest {
    /// This page's request as the API request it stands for, with query `query` (the API's
    /// names and values, `sort=-created_at`) instead of the page's own: the handler reads its
    /// query parameters from the request, checked by the route's rules. Same headers (the
    /// device a call records), no body (the page already read it).
    func calling(query: [String: String]) -> ConsolePageRequest {
        // Every character but the unreserved ones escaped: a `+` typed in a search is a plus.
        func escaped(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? "" }
        let items = query.sorted { $0.key < $1.key }.map { "\(escaped($0.key))=\(escaped($0.value))" }
        var head = request.head
        head.path = request.uri.path + (items.isEmpty ? "" : "?" + items.joined(separator: "&"))
        return ConsolePageRequest(request: Request(head: head, body: RequestBody(buffer: ByteBuffer())), context: context, visitor: visitor)
    }

    /// RFC 3986's unreserved characters.
    private static let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    /// Whether the visitor may call `route`, by the same reading of the role and the session as
    /// the route's stages: so a page offers only what the API would then do.
    func may(_ route: AnyRoute) -> Bool { staff.mayUse(route) }

    /// Throws the API's own refusal when the visitor may not call `route`: for a page that
    /// shows a form before any call is made (the call itself checks again).
    func require(_ route: AnyRoute) throws { try staff.checkReach(of: route) }
}

extension Console {
    /// Calls `route`'s handler as `page`'s visitor, as `call` does, for a handler that answers
    /// a response of its own (the clients' CSV export): its status, headers and streamed body
    /// kept, and the console's page headers added.
    func respond<Body: WireType, Answer>(
        _ route: Route<Body, Answer>, _ page: ConsolePageRequest, body: Body,
        _ handler: @Sendable (RouteCall<Body>) async throws -> Response
    ) async throws -> Response {
        var response = try await stages(route, page.request, page.context, body: body, handler)
        ConsoleTemplates.pageHeaders(into: &response.headers)
        return response
    }
}
