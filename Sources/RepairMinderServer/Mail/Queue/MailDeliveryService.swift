import Foundation
import Logging
import RepairMinderModels
import ServiceLifecycle

/// The delivery worker: a service of the application, started and stopped with it. Claims due
/// messages from the queue, hands each to the transport, and records the outcome: sent; retried
/// with backoff (no answer, or a 4xx reply); failed (a 5xx reply, or the retry limit reached).
/// Several instances run one each on the same database; the claim keeps them apart.
struct MailDeliveryService: Service {
    let queue: MailQueue
    let transport: any MailTransport
    let schedule: RetrySchedule
    let clock: ServerClock
    let logger: Logger
    var metrics: ServerMetrics?
    /// Seconds the body of a finished message is kept.
    var retention: Double
    /// Seconds between looks for due mail when idle (mail of other instances, retries).
    var pollInterval: Double
    /// Messages delivered at once.
    var batchSize = 8
    /// An attempt that has not finished after this many seconds is abandoned (and retried).
    var attemptTimeout = 60.0
    /// After a shutdown signal, how long attempts in flight may still finish.
    var shutdownGrace = 5.0

    init(queue: MailQueue, transport: any MailTransport, settings: ServerSettings, clock: ServerClock, logger: Logger, metrics: ServerMetrics?) {
        self.queue = queue
        self.transport = transport
        schedule = RetrySchedule(settings: settings)
        self.clock = clock
        self.logger = logger
        self.metrics = metrics
        retention = Double(settings.mailRetention)
        pollInterval = settings.mailPollInterval
    }

    /// How long a claim lasts: longer than any attempt, so only a crashed worker's claim expires.
    var lease: Double { attemptTimeout * 2 }

    func run() async throws {
        let stopping = Once()
        await withGracefulShutdownHandler {
            var nextErase = 0.0
            var nextRetry: Double?
            // Cancelled (the server could not start, say): stop too, or the loop would spin,
            // every wait returning at once.
            while !stopping.isSet, !Task.isCancelled {
                // Looking for work stops at once on shutdown, even when the database does not
                // answer (a call waiting for a connection is cancelled); delivering does not.
                if clock.now() >= nextErase {
                    nextErase = clock.now() + 600
                    await report("erase delivered mail bodies", unless: stopping) {
                        try await cancelWhenGracefulShutdown {
                            try await queue.erase(finishedBefore: clock.now() - retention, now: clock.now())
                        }
                    }
                }
                let claimed = await report("claim queued mail", unless: stopping) {
                    try await cancelWhenGracefulShutdown { try await queue.claim(limit: batchSize, now: clock.now(), lease: lease) }
                } ?? []
                if claimed.isEmpty {
                    // Nothing in flight at this worker and nothing due: tests wait for this line
                    // to know that nothing more will be sent.
                    logger.trace("Mail queue: nothing due")
                    // Sleep until the next look, or sooner for a retry this worker scheduled.
                    let untilRetry = nextRetry.map { $0 - clock.now() } ?? pollInterval
                    nextRetry = nil
                    await queue.wakeup.wait(upTo: max(0.01, min(pollInterval, untilRetry)))
                    continue
                }
                let outcomes = await withTaskGroup(of: Outcome.self) { group in
                    for mail in claimed { group.addTask { await deliver(mail, stopping: stopping) } }
                    return await group.reduce(into: [Outcome]()) { $0.append($1) }
                }
                let retries = outcomes.compactMap { if case .retry(let time) = $0 { time } else { nil } }
                nextRetry = (retries + [nextRetry].compactMap { $0 }).min()
                if outcomes.contains(.sent) {
                    // The mail server takes mail again: what waits for a retry need not wait out its backoff.
                    await report("bring retries forward") { try await queue.bringRetriesForward(now: clock.now()) }
                }
            }
        } onGracefulShutdown: {
            stopping.set()
            queue.wakeup.signal()
        }
    }

    /// How one attempt ended.
    private enum Outcome: Equatable {
        case sent
        case retry(at: Double)
        /// Failed for good, or left to the worker that holds the claim now.
        case over
    }

    /// One attempt at one message, and its outcome recorded.
    private func deliver(_ mail: ClaimedMail, stopping: Once) async -> Outcome {
        // By queue id only: an address in a log would tell whoever reads it who has an account
        // (`repairminder outbox --status` shows the recipient to an operator who needs it).
        let log = logger.with(["mail_id": "\(mail.id)", "attempt": "\(mail.attempts)"])
        if mail.uncertain > MailQueue.maxResendsInDoubt {
            await finish(
                mail,
                failed: MailDeliveryError(
                    stage: .inDoubt, isPermanent: true, hadReply: false,
                    description: "delivery was interrupted after the message was handed over, twice; not sent again so it is not duplicated (it may have arrived)"),
                log: log)
            return .over
        }
        let message: MailMessage
        do {
            message = try queue.open(mail)
        } catch {
            await finish(
                mail, failed: MailDeliveryError(stage: .unreadable, isPermanent: true, hadReply: false, description: "cannot open the queued message: \(error)"),
                log: log)
            return .over
        }
        let handedOver = Once(), claimLost = Once()
        let outcome = await attempt(stopping: stopping) {
            try await transport.deliver(message, messageID: mail.id) {
                guard try await queue.handOver(mail, now: clock.now()) else {
                    claimLost.set()
                    throw ClaimLost()
                }
                handedOver.set()
            }
        }
        // Noted here rather than read from the error, which a transport may wrap in its own.
        if claimLost.isSet {
            log.warning("Mail claim expired during delivery; another worker has it")
            return .over
        }
        switch outcome {
        case .success:
            await report("record a sent message") { try await queue.markSent(mail, now: clock.now()) }
            metrics?.mailDelivery("sent")
            log.info("Mail sent")
            return .sent
        case .failure(let error as MailDeliveryError) where error.isPermanent:
            await finish(mail, failed: error, log: log)
        case .failure(let error):
            let failure = MailDeliveryError.of(error)
            let answered = failure.hadReply
            return await retry(mail, failure, inDoubt: handedOver.isSet && !answered, unreachable: !answered && !handedOver.isSet, log: log)
        }
        return .over
    }

    /// Runs `body`, giving up after `attemptTimeout`, or `shutdownGrace` after a shutdown signal.
    private func attempt(stopping: Once, _ body: @escaping @Sendable () async throws -> Void) async -> Result<Void, any Error> {
        let started = ContinuousClock.now
        return await withTaskGroup(of: Result<Void, any Error>?.self) { group in
            group.addTask {
                do { return .success(try await body()) } catch { return .failure(error) }
            }
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(250))
                    if ContinuousClock.now - started > .seconds(attemptTimeout) {
                        return .failure(
                            MailDeliveryError(stage: .timeout, isPermanent: false, hadReply: false, description: "no answer within \(Int(attemptTimeout)) s"))
                    }
                    if let since = stopping.since, ContinuousClock.now - since > .seconds(shutdownGrace) {
                        return .failure(MailDeliveryError(stage: .shutdown, isPermanent: false, hadReply: false, description: "interrupted by a shutdown"))
                    }
                }
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .failure(CancellationError())
        }
    }

    /// Schedules the next attempt, or fails the message past the retry limit.
    private func retry(_ mail: ClaimedMail, _ failure: MailDeliveryError, inDoubt: Bool, unreachable: Bool, log: Logger) async -> Outcome {
        let now = clock.now()
        guard let next = schedule.nextAttempt(afterAttempt: mail.attempts, queuedAt: mail.createdAt, now: now) else {
            let hours = schedule.limit / 3600
            await finish(mail, failed: failure.givenUp("gave up after \(mail.attempts) attempts in \(hours.formatted()) h: \(failure)"), log: log)
            return .over
        }
        await report("schedule a retry") {
            try await queue.retry(mail, at: next, failure: failure, inDoubt: inDoubt, unreachable: unreachable, now: now)
        }
        metrics?.mailDelivery("retried")
        log.warning("Mail not delivered; will retry", metadata: ["error": "\(failure)", "retry_in_seconds": "\(Int((next - now).rounded()))"])
        return .retry(at: next)
    }

    private func finish(_ mail: ClaimedMail, failed failure: MailDeliveryError, log: Logger) async {
        await report("record a failed message") { try await queue.markFailed(mail, failure: failure, now: clock.now()) }
        metrics?.mailDelivery("failed")
        log.error("Mail failed; not retried", metadata: ["error": "\(failure)"])
    }

    /// Runs a queue operation; a database error is logged (the next round tries again), unless
    /// it is the cancellation of a shutdown.
    @discardableResult
    private func report<T: Sendable>(_ what: String, unless stopping: Once? = nil, _ body: () async throws -> T) async -> T? {
        do {
            return try await body()
        } catch is DatabaseClosedError {
            // Nothing more can be delivered or recorded: the worker stops instead of retrying.
            if let stopping, !stopping.isSet {
                stopping.set()
                logger.warning("Mail queue: the database closed; delivery stops")
            }
            return nil
        } catch {
            if stopping?.isSet != true { logger.error("Mail queue: cannot \(what)", metadata: ["error": "\(error)"]) }
            return nil
        }
    }
}

/// The claim expired and another worker took the message: this one must not send it.
private struct ClaimLost: Error {}

/// Something that happens once (a shutdown signal, a hand-over), set from one task and read
/// from others; remembers when.
private final class Once: @unchecked Sendable {
    private let lock = NSLock()
    private var time: ContinuousClock.Instant?
    var isSet: Bool { since != nil }
    var since: ContinuousClock.Instant? { lock.withLock { time } }
    func set() { lock.withLock { if time == nil { time = .now } } }
}

extension Logger {
    /// This logger with extra metadata on every line.
    func with(_ metadata: Logger.Metadata) -> Logger {
        var copy = self
        for (key, value) in metadata { copy[metadataKey: key] = value }
        return copy
    }
}

/// Listed by name when the service group logs its services (`--verbose`), not by what it holds.
extension MailDeliveryService: CustomStringConvertible {
    var description: String { "MailDeliveryService" }
}
