/// Writes that arrive while a batch is being written are written together in the next batch:
/// group commit, for a database with one writer at a time (SQLite). One transaction per write
/// would queue each behind the statements and commit of every other; one transaction per batch
/// pays for those once.
///
/// A batch is written as soon as the previous one is done, so a lone write waits for nothing;
/// under load, batches grow with the queue up to `capacity`.
actor GroupCommit<Item: Sendable, Output: Sendable> {
    /// Writes a batch in one transaction: one output per item, in the items' order. If it
    /// throws, every item of that batch fails with the error.
    typealias Write = @Sendable ([Item]) async throws -> [Output]

    private let write: Write
    private let capacity: Int
    private var queued: [(item: Item, continuation: CheckedContinuation<Output, any Error>)] = []
    private var isWriting = false

    init(capacity: Int = 64, write: @escaping Write) {
        self.capacity = max(1, capacity)
        self.write = write
    }

    /// How many items wait for the next batch (for tests that line writes up behind a batch).
    var waiting: Int { queued.count }

    /// Queues `item` for the next batch and returns its output once that batch is committed.
    func submit(_ item: Item) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            queued.append((item, continuation))
            if !isWriting {
                isWriting = true
                Task { await writeQueued() }
            }
        }
    }

    private func writeQueued() async {
        while !queued.isEmpty {
            let batch = queued.prefix(capacity)
            queued.removeFirst(batch.count)
            do {
                let outputs = try await write(batch.map(\.item))
                guard outputs.count == batch.count else { throw GroupCommitMismatch() }
                for (entry, output) in zip(batch, outputs) { entry.continuation.resume(returning: output) }
            } catch {
                for entry in batch { entry.continuation.resume(throwing: error) }
            }
        }
        isWriting = false
    }
}

/// A batch's write returned a different number of outputs than it was given items (a bug).
struct GroupCommitMismatch: Error {}
