#if canImport(Network)
import Network
import RepairMinderKit

/// The device's network path from `NWPathMonitor`, for `AppModel(network:)`: refreshes pause
/// while there is no usable path and resume when it comes back. One monitor per listener, as
/// a monitor cannot be restarted once cancelled.
public struct SystemNetworkPathMonitor: NetworkPathMonitoring {
    public init() {}

    public func statuses() -> AsyncStream<NetworkPathStatus> {
        AsyncStream { continuation in
            let monitor = NWPathMonitor()
            monitor.pathUpdateHandler = { path in
                // `.requiresConnection` (a VPN on demand, say) cannot be used until something
                // connects: for refreshing, that is offline too.
                continuation.yield(path.status == .satisfied ? .satisfied : .unsatisfied)
            }
            continuation.onTermination = { _ in monitor.cancel() }
            monitor.start(queue: DispatchQueue(label: "RepairMinder.NetworkPath"))
        }
    }
}
#endif
