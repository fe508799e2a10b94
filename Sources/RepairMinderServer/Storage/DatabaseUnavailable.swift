import PostgresNIO
import _ConnectionPoolModule

/// Whether a failure means the database cannot be reached now (closed, down, restarting),
/// as opposed to a query that failed: a request that meets one is answered 503
/// `SERVICE_UNAVAILABLE` with `Retry-After`, which clients retry, not 500.
enum DatabaseUnavailable {
    static func matches(_ error: any Error) -> Bool {
        if error is DatabaseClosedError || error is DatabaseUnreachableError { return true }
        // The pool's own answers while the server is away: it stopped trying to connect for a
        // while (its circuit breaker), or it is shutting down.
        if let error = error as? ConnectionPoolError {
            return error == .connectionCreationCircuitBreakerTripped || error == .poolShutdown
        }
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed:
            return true
        case .server:
            // Class 08 is "connection exception"; 57P01–57P03 an administrator's shutdown or a
            // server still starting.
            let state = error.serverInfo?[.sqlState] ?? ""
            return state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
        default:
            return false
        }
    }
}

/// PostgreSQL did not answer the pool's last probe (`PostgresPool`): the call was not tried.
struct DatabaseUnreachableError: Error, CustomStringConvertible {
    var description: String { "the database does not answer" }
}
