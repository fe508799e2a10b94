import Dispatch

/// Runs `body`, and every task it starts in structured concurrency (the in-process server under
/// test, its connections, an `async let`), on a thread of its own instead of the shared
/// cooperative pool.
///
/// Why: Swift Testing starts every test of the run at once, and the pool has one thread per
/// core. Each `await` of a test then resumes behind the tasks of hundreds of other tests, so a
/// test's wall-clock time is about the whole run's (a median of 105 s in a 240 s run on two
/// cores), however little it does itself. A test whose outside party has a clock of its own (the
/// browser checks, with `TestServer(firstInLine:)`) runs here, where its awaits queue only
/// behind its own work and the operating system shares the cores between its thread and the
/// pool's.
public func onOwnExecutor<Result: Sendable>(
    _ label: String = #function, _ body: () async throws -> Result
) async rethrows -> Result {
    try await withTaskExecutorPreference(OwnExecutor(label: label), operation: body)
}

/// A task executor backed by a serial dispatch queue of its own (see `onOwnExecutor`).
final class OwnExecutor: TaskExecutor, @unchecked Sendable {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: "test-executor." + label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
