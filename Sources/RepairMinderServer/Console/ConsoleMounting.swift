import Foundation
import Hummingbird
import Logging
import RepairMinderModels

/// Mounts console pages on the router (beside the API's route table: HTML for browsers, not
/// the contract's JSON), each with the console's checks and answers for what goes wrong:
/// without a session a page sends the browser to sign-in, a posted form must come from a
/// console page (`ConsoleForm`), an API refusal is a page with the API's own message, and a
/// 500's details go only to the log.
struct ConsoleMounting {
    let console: Console
    let router: Router<AppRequestContext>

    /// A page for signed-in staff at `path` (under `/console`).
    func get(_ path: String, _ handler: @escaping @Sendable (ConsolePageRequest) async throws -> Response) {
        let console = self.console
        router.get(RouterPath(Console.root + path)) { request, context in
            await console.answer(request, context) {
                guard let page = try await console.signedIn(request, context) else { return console.toSignIn() }
                return try await handler(page)
            }
        }
    }

    /// A form for signed-in staff posted to `path`: answered only when it comes from a console page.
    func post(_ path: String, _ handler: @escaping @Sendable (ConsolePageRequest, ConsoleForm) async throws -> Response) {
        let console = self.console
        router.post(RouterPath(Console.root + path)) { request, context in
            await console.answer(request, context) {
                guard let page = try await console.signedIn(request, context) else {
                    // A session that ended while its page was open: sign in again (nothing is
                    // done). Another site's form is refused as any other would be.
                    try ConsoleForm.checkOrigin(request, settings: console.settings)
                    return console.toSignIn()
                }
                let form = try await ConsoleForm.read(request, secret: page.visitor.token, settings: console.settings)
                return try await handler(page, form)
            }
        }
    }

    /// A page anyone may open (sign-in), at `path`.
    func getPublic(_ path: String, _ handler: @escaping @Sendable (Request, AppRequestContext) async throws -> Response) {
        let console = self.console
        router.get(RouterPath(Console.root + path)) { request, context in
            await console.answer(request, context) { try await handler(request, context) }
        }
    }

    /// A form anyone may post (sign-in's), checked against the pre-session cookie's CSRF token.
    func postPublic(_ path: String, _ handler: @escaping @Sendable (Request, AppRequestContext, ConsoleForm) async throws -> Response) {
        let console = self.console
        router.post(RouterPath(Console.root + path)) { request, context in
            await console.answer(request, context) {
                let secret = ConsoleCookies.value(ConsoleCookies.preSession, in: request)
                let form = try await ConsoleForm.read(request, secret: secret, settings: console.settings)
                return try await handler(request, context, form)
            }
        }
    }
}

extension Console {
    /// The signed-in page request, or nil without a live console session.
    func signedIn(_ request: Request, _ context: AppRequestContext) async throws -> ConsolePageRequest? {
        guard let visitor = try await visitor(request) else { return nil }
        var context = context
        context.staff = visitor.staff
        return ConsolePageRequest(request: request, context: context, visitor: visitor)
    }

    /// A redirect (303) to `path` under `/console`.
    func redirect(_ path: String, headers: HTTPFields = [:]) -> Response {
        var response = Response.redirect(to: Console.root + path, type: .normal)
        for field in headers { response.headers.append(field) }
        ConsoleTemplates.pageHeaders(into: &response.headers)
        return response
    }

    func toSignIn() -> Response { redirect("/sign-in") }

    /// `work`'s answer, or the page of what went wrong.
    func answer(_ request: Request, _ context: AppRequestContext, _ work: () async throws -> Response) async -> Response {
        do {
            return try await work()
        } catch ConsoleRefusal.crossSite {
            return problem(
                .forbidden, "This form could not be accepted: it did not come from this console, or the page was too old. Go back, reload the page and try again.")
        } catch ConsoleRefusal.tooLarge {
            return problem(.contentTooLarge, "The form was too large to read.")
        } catch let error as APIError {
            switch error.code {
            case .unauthorized, .tokenExpired: return toSignIn()
            case .factorEnrolmentRequired: return redirect("/account?notice=enrol")
            default:
                if error.status.code < 500 { return problem(error.status, error.message, headers: error.headers) }
                context.logger.error("Console page failed", metadata: ["error": "\(String(reflecting: error))"])
            }
        } catch where DatabaseUnavailable.matches(error) {
            // As the API answers it (docs/API.md §1): a moment's wait, not a failure.
            context.logger.error("The database does not answer", metadata: ["error": "\(String(reflecting: error))"])
            let unavailable = APIError.serviceUnavailable
            return problem(unavailable.status, unavailable.message, headers: unavailable.headers)
        } catch {
            context.logger.error("Console page failed", metadata: ["error": "\(String(reflecting: error))"])
        }
        return problem(.internalServerError, "Something went wrong on our side. Try again in a moment.")
    }

    /// A page that says what went wrong, in the API's words, with a way back.
    func problem(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) -> Response {
        let title = switch status.code {
        case 403: "Not allowed"
        case 404: "Not found"
        case 409: "That could not be done"
        case 429: "Too many tries"
        case 503: "Unavailable for a moment"
        case 500...: "Something went wrong"
        default: "That could not be done"
        }
        return templates.page("problem", ConsoleView(title: title, csrf: "", problem: message), status: status, headers: headers)
    }
}
