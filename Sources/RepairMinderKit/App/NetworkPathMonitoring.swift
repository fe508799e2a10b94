/// Whether the device has a network path it can use, as Apple's `NWPathMonitor` reports it
/// (`NWPath.Status`: `.satisfied`, or `.unsatisfied` / `.requiresConnection`).
public enum NetworkPathStatus: Sendable, Equatable {
    case satisfied
    case unsatisfied
}

/// Reports the device's network path to `AppModel`: `SystemNetworkPathMonitor` (RepairMinderUI,
/// over `NWPathMonitor`) in an app; a fake in tests. While the path is unsatisfied the app does
/// not try to refresh (every try would fail), and once it is back the session is refreshed and
/// an `.offline` one checked at once, instead of at the next retry.
public protocol NetworkPathMonitoring: Sendable {
    /// The current status first, then each change, until the listener stops listening.
    func statuses() -> AsyncStream<NetworkPathStatus>
}
