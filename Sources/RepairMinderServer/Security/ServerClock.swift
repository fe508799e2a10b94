import Foundation

/// The server's notion of now, in seconds since 1970. Tests move it instead of sleeping.
public struct ServerClock: Sendable {
    private let read: @Sendable () -> Double

    public init(_ read: @escaping @Sendable () -> Double) { self.read = read }

    /// The wall clock.
    public static let system = ServerClock { Date().timeIntervalSince1970 }

    public func now() -> Double { read() }
}
