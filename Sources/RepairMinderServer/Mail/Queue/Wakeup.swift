import Foundation

/// Wakes one waiting task early: the delivery worker sleeps between polls, and a request that
/// queued mail (or a shutdown) cuts the sleep short. A signal with no waiter is kept for the
/// next wait, so none is lost between two waits.
final class Wakeup: @unchecked Sendable {
    private let lock = NSLock()
    private var pending = false
    private var waiter: CheckedContinuation<Void, Never>?
    private var waitsBegun = 0

    /// How many waits have begun: each is an idle pass of the delivery worker, which tests wait
    /// for instead of sleeping ("the worker is running and found nothing to do").
    var waits: Int { lock.withLock { waitsBegun } }

    func signal() {
        let waiting: CheckedContinuation<Void, Never>? = lock.withLock {
            defer { waiter = nil }
            if waiter == nil { pending = true }
            return waiter
        }
        waiting?.resume()
    }

    /// Returns on a signal, or after `seconds`.
    func wait(upTo seconds: Double) async {
        lock.withLock { waitsBegun += 1 }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitForSignal() }
            group.addTask { try? await Task.sleep(for: .seconds(seconds)) }
            await group.next()
            group.cancelAll()
        }
    }

    private func waitForSignal() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow: Bool = lock.withLock {
                    if pending || Task.isCancelled {
                        pending = false
                        return true
                    }
                    waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiting: CheckedContinuation<Void, Never>? = lock.withLock {
                defer { waiter = nil }
                return waiter
            }
            waiting?.resume()
        }
    }
}
