/// When to try a message again: exponential backoff with jitter, within a time limit.
struct RetrySchedule: Sendable {
    /// The first retry's delay in seconds; each further one doubles it, up to `maxDelay`.
    var baseDelay: Double
    var maxDelay: Double
    /// Seconds after queueing past which a message is no longer retried.
    var limit: Double

    init(settings: ServerSettings) {
        baseDelay = settings.mailRetryBaseDelay
        maxDelay = settings.mailRetryMaxDelay
        limit = Double(settings.mailRetryLimit)
    }

    /// The delay after the `attempts`-th failed attempt: "equal jitter", between half and all of
    /// the exponential step, so workers that failed together (the mail server went down) do not
    /// all come back in the same instant.
    func delay(afterAttempt attempts: Int, random: Double = Double.random(in: 0...1)) -> Double {
        let step = min(maxDelay, baseDelay * Double(1 << min(max(attempts - 1, 0), 30)))
        return step / 2 + step / 2 * random
    }

    /// When to try again, or nil when the next try would fall outside the limit.
    func nextAttempt(afterAttempt attempts: Int, queuedAt: Double, now: Double) -> Double? {
        let time = now + delay(afterAttempt: attempts)
        return time <= queuedAt + limit ? time : nil
    }
}
