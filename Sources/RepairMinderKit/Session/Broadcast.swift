import Foundation

/// Values sent to any number of `AsyncStream` listeners. With `replaying`, it also has a
/// current value, which each new listener gets first (as supabase-swift's
/// `authStateChanges` replays the session to each new listener); without, listeners get only
/// what is sent after they start listening.
final class Broadcast<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Value?
    private var listeners: [UUID: AsyncStream<Value>.Continuation] = [:]

    init(replaying initial: Value? = nil) {
        current = initial
    }

    /// The last value sent (or the initial one); nil when not replaying.
    var value: Value? { lock.withLock { current } }

    /// Sends `value` to every listener (and keeps it as the current one when replaying).
    func send(_ value: Value) {
        lock.withLock {
            if current != nil { current = value }
            // Under the lock, so every listener sees the values in the order they were sent.
            for listener in listeners.values { listener.yield(value) }
        }
    }

    /// A new listener: the current value first (when replaying), then each value sent. It
    /// keeps the newest 32 values a slow reader has not taken yet.
    func stream() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(32))
        let id = UUID()
        lock.withLock {
            listeners[id] = continuation
            if let current { continuation.yield(current) }
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.lock.withLock { self?.listeners.removeValue(forKey: id) }
        }
        return stream
    }
}
