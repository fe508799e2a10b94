import Hummingbird

/// Headers every answer carries, success or failure: `X-Content-Type-Options: nosniff` (a
/// browser takes each body for the type it is labelled with, never guesses), and
/// `Cache-Control: no-store` unless the route chose its own caching (`/api/config`, logos):
/// tokens, codes and account data are never kept by a browser or a proxy.
struct ResponseHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.xContentTypeOptions] = "nosniff"
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        return response
    }
}
