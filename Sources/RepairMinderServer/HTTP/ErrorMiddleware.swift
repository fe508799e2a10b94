import Hummingbird
import Logging
import RepairMinderModels

/// Turns every failure into docs/API.md §1's envelope: our `APIError`s as they are, Hummingbird's
/// own errors (unknown route, body too large) into their codes, anything else into a generic
/// 500 whose details go only to the log.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return try error.response(from: request, context: context)
        } catch let problem as FieldProblem {
            return try APIError.validation(problem.message).response(from: request, context: context)
        } catch let error as HTTPError {
            let mapped: APIError = switch error.status {
            case .notFound, .methodNotAllowed: .notFound
            case .contentTooLarge: .payloadTooLarge
            case .badRequest: .invalidJSON
            default: .internalError
            }
            if mapped.status == .internalServerError {
                context.logger.error("Unhandled HTTP error", metadata: ["error": "\(error)"])
            }
            return try mapped.response(from: request, context: context)
        } catch {
            context.logger.error("Unhandled error", metadata: ["error": "\(String(reflecting: error))"])
            return try APIError.internalError.response(from: request, context: context)
        }
    }
}
