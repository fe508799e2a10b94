import Foundation
import Hummingbird
import Logging
import RepairMinderModels

/// Turns every failure into one `APIError`: ours as they are, Hummingbird's own errors
/// (unknown route, body too large) into their codes, a database that does not answer into 503
/// with `Retry-After`, anything else into a generic 500 whose
/// details go only to the log. It is then rendered in the shape of its path: docs/API.md §1's
/// envelope, or under `/auth/` (while REKI is served) seed 002's `{statusCode, message,
/// timestamp}` (§10). One error type, two renderings.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Whether paths under `/auth/` are REKI's (`--reki`).
    var rekiServed = true
    /// What the router has, for telling 405 from 404.
    var mounted = MountedRoutes()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let failure: APIError
        do {
            return try await next(request, context)
        } catch let error as APIError {
            failure = error
        } catch let problem as FieldProblem {
            failure = .validation(problem.message)
        } catch let error as HTTPError {
            failure = switch error.status {
            case .notFound, .methodNotAllowed: noRoute(for: request)
            case .contentTooLarge: .payloadTooLarge
            case .badRequest: .invalidJSON
            default: .internalError
            }
            if failure.status == .internalServerError {
                context.logger.error("Unhandled HTTP error", metadata: ["error": "\(error)"])
            }
        } catch where DatabaseUnavailable.matches(error) {
            context.logger.error("The database does not answer", metadata: ["error": "\(String(reflecting: error))"])
            failure = .serviceUnavailable
        } catch {
            context.logger.error("Unhandled error", metadata: ["error": "\(String(reflecting: error))"])
            failure = .internalError
        }
        if rekiServed, Routes.REKI.contains(path: request.uri.path) { return failure.rekiResponse(now: Date()) }
        return try failure.response(from: request, context: context)
    }

    /// What no route answered: 405 with `Allow` when the path is served with other methods,
    /// 404 when it is not served at all.
    private func noRoute(for request: Request) -> APIError {
        let allowed = mounted.methods(for: request.uri.path)
        guard !allowed.isEmpty else { return .notFound }
        return .methodNotAllowed(allowed: allowed.sorted { $0.rawValue < $1.rawValue })
    }
}

extension APIError {
    /// Seed 002's rendering: the status, REKI's message for it, and the time.
    func rekiResponse(now: Date) -> Response {
        let body = REKIErrorBody(
            statusCode: Int(status.code), message: rekiMessage,
            timestamp: Timestamp.iso8601Milliseconds(now.timeIntervalSince1970))
        return .json(body, status: status, headers: headers)
    }

    /// The message a REKI client shows: seed 002's words where it has them, ours otherwise
    /// (a field's rule, a password rule, "Email already exists").
    var rekiMessage: String {
        switch code {
        case .unauthorized, .tokenExpired: "Unauthorized"
        case .rateLimited: "Too many requests"
        case .invalidJSON: "Invalid JSON"
        case .internalError: "Internal server error"
        default: message
        }
    }
}
