import Foundation
import Hummingbird
import SQLKit

/// `GET /api/clients/export` (docs/API.md §14): every live client of the shop as CSV, oldest
/// first, streamed a page at a time, so a shop of any size exports in the memory of one page.
struct ClientExport: Sendable {
    let database: Database
    /// Rows read and written at a time.
    static let pageSize = 1000

    /// The response whose body reads the shop's clients page by page as the client takes them.
    func response(companyId: String) -> Response {
        let database = self.database
        let body = ResponseBody { writer in
            try await writer.write(ByteBuffer(data: try ClientCSV.lines([ClientCSV.columns])))
            var after: (createdAt: Double, id: String)?
            while true {
                let cursor = after
                let rows = try await database.withConnection { db in try await Self.page(companyId: companyId, after: cursor, on: db) }
                if !rows.isEmpty { try await writer.write(ByteBuffer(data: try ClientCSV.lines(rows.map(Self.cells)))) }
                guard rows.count == Self.pageSize, let last = rows.last else { break }
                after = (last.createdAt, last.id)
            }
            try await writer.finish(nil)
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/csv; charset=utf-8"
        headers[.contentDisposition] = "attachment; filename=\"clients.csv\""
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: body)
    }

    /// The page after `after` in (created_at, id) order: a range on `clients_live_created`.
    private static func page(companyId: String, after: (createdAt: Double, id: String)?, on db: any SQLDatabase) async throws
        -> [ClientRecord]
    {
        let from: SQLQueryString = after.map { "AND (created_at, id) > (\(bind: $0.createdAt), \(bind: $0.id))" } ?? ""
        return try await db.raw(
            """
            SELECT * FROM clients WHERE company_id = \(bind: companyId) AND deleted_at IS NULL \(from)
            ORDER BY created_at, id LIMIT \(bind: pageSize)
            """
        ).all(decoding: ClientRecord.self, with: AccountStore.rowDecoder)
    }

    /// A client's cells, in `ClientCSV.columns`' order.
    private static func cells(_ client: ClientRecord) -> [String] {
        [
            client.email, client.firstName ?? "", client.lastName ?? "", client.phone ?? "", client.notes ?? "",
            Timestamp.iso8601(client.createdAt),
        ]
    }
}
