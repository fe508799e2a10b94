import Foundation

/// Where the SDK's timers read the time and how they wait: the wall clock and `Task.sleep`
/// unless the app gives another. Tests give a clock they move by hand, so a timer an hour away
/// fires when the test says and no test waits for it in real time.
public struct SDKClock: Sendable {
    /// The current time.
    public var now: @Sendable () -> Date
    /// Waits `duration`; throws `CancellationError` when the task is cancelled first.
    public var sleep: @Sendable (Duration) async throws -> Void

    /// A clock of these two.
    public init(now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// The wall clock and real sleeping.
    public static let system = SDKClock(now: { Date() }, sleep: { try await Task.sleep(for: $0) })
}
