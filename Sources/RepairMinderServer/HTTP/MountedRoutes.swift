import Foundation
import RepairMinderModels

/// The routes this server mounted (`RouteMounter` records each, and so do the pages mounted
/// beside the table), so a request no route answered can be told apart: a mounted path asked
/// with another method (405 with `Allow`) or a path not served here at all (404), whatever the
/// settings left out (`--reki false`).
final class MountedRoutes: @unchecked Sendable {
    private let lock = NSLock()
    private var routes: [(method: HTTPMethod, path: RoutePath)] = []

    func record(_ route: AnyRoute) { record(route.method, route.path) }

    /// Records a route that is not in the table (a browser page, `REKIResetPageController`).
    func record(_ method: HTTPMethod, _ path: RoutePath) { lock.withLock { routes.append((method, path)) } }

    /// The routes of `expected` not mounted (compared by method and path template).
    func missing(from expected: [AnyRoute]) -> [AnyRoute] {
        let mounted = lock.withLock { Set(routes.map { "\($0.method.rawValue) \($0.path)" }) }
        return expected.filter { !mounted.contains("\($0.method.rawValue) \($0.path)") }
    }

    /// The methods mounted for `path`, as a router matches it (empty segments ignored).
    func methods(for path: String) -> Set<HTTPMethod> {
        let segments = path.split(separator: "/")
        return lock.withLock { Set(routes.filter { $0.path.match(segments) != nil }.map(\.method)) }
    }
}
