import Foundation
import Hummingbird
import RepairMinderModels

/// The clients' CSV import and export from the console (docs/API.md §15.6, §14.3): the file a
/// browser uploads goes to the import's own handler as the route's `CSVFile` body, with the
/// form's "dry run" and "partial" as the route's query; the export is the API's download.
extension ConsoleClientPages {
    struct ImportPage {
        /// The form's boxes: ticked for a first try; after a dry run, "dry run" unticked.
        let dryRun: Bool
        let partial: Bool
        let report: Report?
    }

    /// What the import did, or would do.
    struct Report {
        let created: Int
        let updated: Int
        let unchanged: Int
        let failed: Int
        let written: Bool
        let dryRun: Bool
        /// What happened, in a sentence.
        let outcome: String
        let errors: [Problem]
        let hasErrors: Bool
        /// Said when `failed` counts more rows than `errors` lists (the API lists 100).
        let moreErrors: String?
    }

    struct Problem {
        let line: Int
        let column: String
        let message: String
    }

    func importForm(_ page: ConsolePageRequest) async throws -> Response {
        try page.require(Routes.clients.import.erased)
        return importPage(page, ImportPage(dryRun: true, partial: false, report: nil), problem: nil)
    }

    private func importPage(_ page: ConsolePageRequest, _ view: ImportPage, problem: String?, status: HTTPResponse.Status = .ok) -> Response {
        console.templates.page(
            "clients-import", page.view("Import clients", current: "\(Console.root)/clients", page: view, problem: problem), status: status)
    }

    func importFile(_ page: ConsolePageRequest, _ upload: ConsoleUpload) async throws -> Response {
        let dryRun = upload.isChecked("dryRun"), partial = upload.isChecked("partial")
        let retry = ImportPage(dryRun: dryRun, partial: partial, report: nil)
        guard let part = upload.file("file") else {
            try page.require(Routes.clients.import.erased)
            return importPage(page, retry, problem: "Choose a CSV file to import.", status: .badRequest)
        }
        let report: ClientImportReport
        do {
            // The route's body type reads the bytes as the API's decoder would (UTF-8 or 400).
            let file: CSVFile
            do { file = try CSVFile(bytes: part.body) } catch let problem as FieldProblem { throw APIError.validation(problem.message) }
            let call = page.calling(query: ["dryRun": String(dryRun), "partial": String(partial)])
            report = try await console.call(Routes.clients.import, call, body: file, clients.importFile)
        } catch let error as APIError where Self.isFormProblem(error) {
            return importPage(page, retry, problem: error.message, status: error.status)
        }
        let view = ImportPage(dryRun: false, partial: partial, report: Self.report(report, dryRun: dryRun))
        return importPage(page, view, problem: nil)
    }

    static func report(_ report: ClientImportReport, dryRun: Bool) -> Report {
        let outcome: String
        if report.written {
            outcome = "Imported: the rows below were written."
        } else if dryRun {
            outcome = "Dry run: nothing was written. This is what importing the file would do."
        } else if report.failed > 0 {
            outcome = "Nothing was written: some rows were refused. Correct them, or tick “Write the good rows”, and import again."
        } else {
            outcome = "Nothing was written: the file changes nothing."
        }
        let listed = report.errors.count
        return Report(
            created: report.created, updated: report.updated, unchanged: report.unchanged, failed: report.failed, written: report.written,
            dryRun: dryRun, outcome: outcome,
            errors: report.errors.map { Problem(line: $0.line, column: $0.column ?? "—", message: $0.message) }, hasErrors: listed > 0,
            moreErrors: report.failed > listed ? "The first \(listed) of \(report.failed) refused rows are listed." : nil)
    }

    /// The export's CSV as the API answers it (`Content-Disposition: attachment`, streamed).
    func export(_ page: ConsolePageRequest) async throws -> Response {
        try await console.respond(Routes.clients.export, page, body: EmptyPayload(), clients.export)
    }
}
