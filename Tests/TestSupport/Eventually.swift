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
