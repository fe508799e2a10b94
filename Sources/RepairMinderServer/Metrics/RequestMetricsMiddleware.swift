import Hummingbird
import RepairMinderModels

/// Counts every request and its duration by route pattern, method and final status (it runs
/// outside `ErrorMiddleware`, so failures are counted with the status the client got), and
/// the refusals of the sign-in routes by error code.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let response = try await next(request, context)
        // Hummingbird names unmatched paths "NotFound" itself; never label by the raw path.
        let route = context.endpointPath ?? "NotFound"
        metrics.request(
            method: request.method.rawValue, route: route, status: response.status.code, duration: ContinuousClock.now - started)
        return response
    }
}
