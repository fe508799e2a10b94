import Foundation
import Hummingbird
import RepairMinderModels

/// A form with a file a console page posted (`multipart/form-data`), checked as `ConsoleForm`
/// checks a form: the browser's `Origin` first, before anything is read; then the body, at
/// most what the route the file goes to reads (`fileLimit`) plus the form's few small fields;
/// then the CSRF token, a field of the form like any other (docs/API.md §15.6).
struct ConsoleUpload: Sendable {
    let form: MultipartFormData

    /// The text field `name`, or "" when missing.
    func text(_ name: String) -> String { form.text(name) ?? "" }

    /// Whether the checkbox `name` was ticked (a browser sends an unticked one not at all).
    func isChecked(_ name: String) -> Bool { form.part(name) != nil }

    /// The file chosen in input `name`; nil when none was (a browser sends an empty one).
    func file(_ name: String) -> MultipartFormData.Part? {
        guard let part = form.part(name), let filename = part.filename, !filename.isEmpty || !part.body.isEmpty else { return nil }
        return part
    }

    /// Reads the posted form, after checking where it came from: throws `ConsoleRefusal` for
    /// another origin, a body that is not such a form or is larger than the limits, or a
    /// missing or wrong CSRF token (for the holder of cookie value `secret`).
    static func read(_ request: Request, secret: String?, settings: ServerSettings, fileLimit: Int) async throws -> ConsoleUpload {
        try ConsoleForm.checkOrigin(request, settings: settings)
        guard let contentType = request.headers[.contentType], let boundary = try? MultipartFormData.boundary(contentType: contentType)
        else { throw ConsoleRefusal.crossSite }
        let limits = MultipartFormData.Limits(file: fileLimit)
        let body: ByteBuffer
        do {
            var request = request
            body = try await request.collectBody(upTo: limits.body)
        } catch {
            throw tooLarge(fileLimit)
        }
        let form: MultipartFormData
        do {
            form = try MultipartFormData.parse(Array(body.readableBytesView), boundary: boundary, limits: limits)
        } catch MultipartFormData.Problem.tooLarge {
            throw tooLarge(fileLimit)
        } catch {
            // As a urlencoded body that is not a form: not what a console page sends.
            throw ConsoleRefusal.crossSite
        }
        try ConsoleForm.checkCSRF(form.text("csrf"), secret: secret)
        return ConsoleUpload(form: form)
    }

    /// 413, saying how large a file may be (which says nothing about the session or the form).
    static func tooLarge(_ fileLimit: Int) -> APIError {
        APIError(.payloadTooLarge, "The file is larger than \(fileLimit / (1024 * 1024)) MiB, the most this form takes. Split it.")
    }
}

extension ConsoleMounting {
    /// A form with a file, for signed-in staff, posted to `path`: answered only when it comes
    /// from a console page. The body is read up to `fileLimit` (the limit of the API route
    /// the file goes to) and the form's small fields.
    func postUpload(
        _ path: String, fileLimit: Int, _ handler: @escaping @Sendable (ConsolePageRequest, ConsoleUpload) async throws -> Response
    ) {
        let console = self.console
        router.post(RouterPath(Console.root + path)) { request, context in
            await console.answer(request, context) {
                guard let page = try await console.signedIn(request, context) else {
                    // A session that ended while its page was open: sign in again, the upload
                    // unread. Another site's form is refused.
                    try ConsoleForm.checkOrigin(request, settings: console.settings)
                    return console.toSignIn()
                }
                let upload = try await ConsoleUpload.read(request, secret: page.visitor.token, settings: console.settings, fileLimit: fileLimit)
                return try await handler(page, upload)
            }
        }
    }
}
