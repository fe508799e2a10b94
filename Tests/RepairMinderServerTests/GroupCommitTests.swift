import TestSupport
import Testing

@testable import RepairMinderServer

/// `GroupCommit`: what arrives while a batch is written goes into the next one.
@Suite struct GroupCommitTests {
    /// Records each batch; the first write waits until `release` so that others queue behind it.
    private actor Writes {
        var batches: [[Int]] = []
        private var gate: CheckedContinuation<Void, Never>?
        private var isHeld = true

        func write(_ items: [Int]) async throws -> [Int] {
            batches.append(items)
            if batches.count == 1 && isHeld { await withCheckedContinuation { gate = $0 } }
            if items.contains(-1) { throw Failure() }
            return items.map { $0 * 10 }
        }

        func release() {
            isHeld = false
            gate?.resume()
            gate = nil
        }
    }

    struct Failure: Error {}

    @Test func itemsQueuedDuringAWriteAreWrittenTogether() async throws {
        let writes = Writes()
        let commit = GroupCommit<Int, Int>(capacity: 3) { try await writes.write($0) }
        let first = Task { try await commit.submit(1) }
        while await writes.batches.isEmpty { await Task.yield() }
        let later = (2...6).map { n in Task { try await commit.submit(n) } }
        // The five queue behind the held first write.
        try await waitUntil { await commit.waiting == 5 }
        await writes.release()
        #expect(try await first.value == 10)
        for (n, task) in zip(2..., later) { #expect(try await task.value == n * 10) }
        let batches = await writes.batches
        // The first alone; then the queue in batches of at most three.
        #expect(batches.first == [1])
        #expect(batches.dropFirst().map(\.count) == [3, 2])
        #expect(batches.flatMap { $0 }.sorted() == Array(1...6))
    }

    @Test func aFailedBatchFailsOnlyItsOwnItems() async throws {
        let writes = Writes()
        await writes.release()
        let commit = GroupCommit<Int, Int> { try await writes.write($0) }
        await #expect(throws: Failure.self) { try await commit.submit(-1) }
        #expect(try await commit.submit(7) == 70)
    }
}
