import Foundation
import RepairMinderKit
import RepairMinderServer

/// The one clock of the tests: the server reads it (`serverClock`), the SDK reads it and sleeps
/// on it (`sdkClock`), so a test moves token expiry, refresh margins and timers together by
/// hand, and nothing waits on the wall clock.
///
/// A `running` clock also moves with the wall clock, for the server's mail queue, whose retries
/// wait in real time; a sleeper on it still wakes only when `advance(by:)` passes its deadline.
public final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Double
    private let running: Bool
    private let started = Date()
    private var sleepers: [UUID: (deadline: Double, continuation: CheckedContinuation<Void, any Error>)] = [:]

    /// A clock at `start` (seconds since 1970; now by default).
    public init(start: Double = Date().timeIntervalSince1970, running: Bool = false) {
        current = start
        self.running = running
    }

    /// Seconds since 1970.
    public var now: Double { lock.withLock { nowLocked } }
    private var nowLocked: Double { current + (running ? Date().timeIntervalSince(started) : 0) }

    /// `now` as a date.
    public var date: Date { Date(timeIntervalSince1970: now) }

    /// Moves the clock on, and wakes every sleeper whose deadline that passes.
    public func advance(by seconds: Double) {
        let due: [CheckedContinuation<Void, any Error>] = lock.withLock {
            current += seconds
            let now = nowLocked
            let woken = sleepers.filter { $0.value.deadline <= now }
            for key in woken.keys { sleepers[key] = nil }
            return woken.values.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    /// How many tasks sleep on this clock now: a timer the code under test has set.
    public var sleeping: Int { lock.withLock { sleepers.count } }

    /// Suspends until `advance(by:)` moves the clock past now + `duration`; throws
    /// `CancellationError` when the task is cancelled first, as `Task.sleep` does.
    public func sleep(for duration: Duration) async throws {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let wakeNow: Bool = lock.withLock {
                    if Task.isCancelled { return true }
                    sleepers[id] = (nowLocked + seconds, continuation)
                    return false
                }
                if wakeNow { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let cancelled = lock.withLock { sleepers.removeValue(forKey: id) }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// The server's view of this clock.
    public var serverClock: ServerClock { ServerClock { [self] in now } }

    /// The SDK's view of this clock: its time, and sleeping that ends when the test advances it.
    public var sdkClock: SDKClock {
        SDKClock(now: { [self] in date }, sleep: { [self] duration in try await sleep(for: duration) })
    }
}
