import Foundation

/// A value shared between a test and the tasks or callbacks it starts, behind a lock.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    public init(_ value: Value) { stored = value }

    public var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Changes the value in place, atomically.
    public func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}
