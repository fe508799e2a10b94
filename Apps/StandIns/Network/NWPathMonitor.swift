// Declarations as in Network.framework's Swift interface (iOS 18 SDK): `NWPathMonitor` and
// `NWPath`, and Apple's documentation pages "NWPathMonitor" and "NWPath.Status".

/// An observer that you use to monitor and react to network changes.
@available(iOS 12.0, macOS 10.14, *)
public final class NWPathMonitor: @unchecked Sendable {
    /// Creates a network path monitor that monitors all available interfaces.
    public init() { standIn() }
    /// A handler that receives network path updates.
    public var pathUpdateHandler: (@Sendable (_ newPath: NWPath) -> Void)? {
        get { standIn() }
        set { standIn() }
    }
    /// The currently available network path observed by the path monitor.
    public var currentPath: NWPath { standIn() }
    /// Starts monitoring path changes, and sets a queue on which path updates are delivered.
    public func start(queue: DispatchQueue) { standIn() }
    /// Stops receiving network path updates.
    public func cancel() { standIn() }
}

/// An object that contains information about the properties of the network that a connection
/// uses, or that are available to your app.
@available(iOS 12.0, macOS 10.14, *)
public struct NWPath: Equatable, Sendable {
    /// A status indicating whether a path can be used by connections.
    public var status: NWPath.Status { standIn() }
    /// A Boolean indicating whether the path uses an interface that is considered expensive.
    public var isExpensive: Bool { standIn() }
    /// A Boolean indicating whether the path uses an interface in Low Data Mode.
    public var isConstrained: Bool { standIn() }

    /// Status values indicating whether a path can be used by connections.
    public enum Status: Equatable, Sendable {
        /// The path is available to establish connections and send data.
        case satisfied
        /// The path is not available for use.
        case unsatisfied
        /// The path is not currently available, but establishing a new connection may activate the path.
        case requiresConnection
    }

    public static func == (lhs: NWPath, rhs: NWPath) -> Bool { standIn() }
}
