import Foundation
import RepairMinderModels

/// The CSV import and export of a shop's clients (docs/API.md §14): RFC 4180, UTF-8, with the
/// header row `email,first_name,last_name,phone,notes,created_at` (an import's columns are
/// found by name; `created_at` is read-only).
extension ClientsClient {
    /// Adds and updates clients from `file` (rows match existing clients by email) and returns
    /// what its rows did: created, updated, unchanged and failed counts, and the refused rows
    /// with their line in the file (the header is line 1). One transaction: with any refused
    /// row nothing is written unless `partial`; with `dryRun` nothing is written at all
    /// (`report.written` says which). The server takes 10 MiB and 50,000 rows at most; a larger
    /// file is refused before it is sent.
    public func importCSV(_ file: CSVFile, dryRun: Bool = false, partial: Bool = false) async throws -> ClientImportReport {
        var query: [URLQueryItem] = []
        if dryRun { query.append(URLQueryItem(name: QueryParameter.dryRun.name, value: "true")) }
        if partial { query.append(URLQueryItem(name: QueryParameter.partial.name, value: "true")) }
        return try await api.send(Routes.clients.import, file, query: query)
    }

    /// `importCSV(_:dryRun:partial:)` with the file's bytes, which must be UTF-8
    /// (`APIError.invalidRequest` otherwise, before anything is sent).
    public func importCSV(_ data: Data, dryRun: Bool = false, partial: Bool = false) async throws -> ClientImportReport {
        let file: CSVFile
        do { file = try CSVFile(bytes: data) } catch let problem as FieldProblem { throw APIError.invalidRequest(problem.message) }
        return try await importCSV(file, dryRun: dryRun, partial: partial)
    }

    /// Every client of the shop as CSV: the file's bytes.
    public func export() async throws -> Data {
        try await api.send(Routes.clients.export).data
    }

    /// Writes every client of the shop as CSV to `fileURL` (replacing the file at once, never
    /// leaving half of one); how many bytes it holds.
    @discardableResult
    public func export(to fileURL: URL) async throws -> Int {
        let csv = try await export()
        try csv.write(to: fileURL, options: .atomic)
        return csv.count
    }
}
