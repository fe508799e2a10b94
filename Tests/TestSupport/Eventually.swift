import Foundation

/// A state a test waited for that never came: `waitUntil` gave up at its deadline.
public struct WaitTimedOut: Error, CustomStringConvertible {
    public let description: String
}

/// Waits until `condition` holds, checking it every `interval`: the one way a test waits for
/// something the code under test does in its own time (a state stream, a queue worker, a
/// process). `timeout` only catches a hang, so it is generous; a wait that reaches it throws
/// `WaitTimedOut`, naming `what` and the caller's line. `condition` runs in the caller's
/// isolation (the main actor for the SDK's models).
public func waitUntil(
    _ what: @autoclosure () -> String = "the condition", timeout: Duration = .seconds(30), interval: Duration = .milliseconds(10),
    isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line,
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else {
            throw WaitTimedOut(description: "\(fileID):\(line): timed out after \(timeout) waiting for \(what())")
        }
        try await Task.sleep(for: interval)
    }
}

/// `waitUntil` for code that cannot suspend (a synchronous test, a `Process` helper).
public func waitUntilBlocking(
    _ what: @autoclosure () -> String = "the condition", timeout: Duration = .seconds(30), interval: Duration = .milliseconds(10),
    fileID: String = #fileID, line: Int = #line, _ condition: () throws -> Bool
) throws {
    let deadline = ContinuousClock.now + timeout
    let pause = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
    while try !condition() {
        guard ContinuousClock.now < deadline else {
            throw WaitTimedOut(description: "\(fileID):\(line): timed out after \(timeout) waiting for \(what())")
        }
        Thread.sleep(forTimeInterval: pause)
    }
}

/// `body`'s result, or `WaitTimedOut` naming `what` once `limit` has passed: a step that could
/// hang (a request to a server under a fault) fails where it hung instead of eating the test's
/// time limit. `body` runs unstructured and is cancelled at the deadline, but not waited for:
/// a call that ignores cancellation must not hold the test.
public func withDeadline<T: Sendable>(
    _ what: @autoclosure () -> String, _ limit: Duration = .seconds(30), fileID: String = #fileID, line: Int = #line,
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let description = "\(fileID):\(line): \(what()) took longer than \(limit)"
    let waiting = Locked<CheckedContinuation<T, any Error>?>(nil)
    let finish: @Sendable (Result<T, any Error>) -> Void = { result in
        waiting.update { continuation in
            continuation?.resume(with: result)
            continuation = nil
        }
    }
    return try await withCheckedThrowingContinuation { continuation in
        waiting.update { $0 = continuation }
        let work = Task {
            do { finish(.success(try await body())) } catch { finish(.failure(error)) }
        }
        Task {
            try? await Task.sleep(for: limit)
            finish(.failure(WaitTimedOut(description: description)))
            work.cancel()
        }
    }
}
