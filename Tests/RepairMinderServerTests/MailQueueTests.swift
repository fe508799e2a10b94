import Foundation
import SQLKit
import TestSupport
import Testing

@testable import RepairMinderServer

/// The mail queue's storage rules, on the engine under test: bodies sealed at rest, claims
/// atomic across instances, bodies erased after the retention period.
@Suite struct MailQueueTests {
    static let jane = "jane@example.test"

    @Test func bodiesAreSealedAtRestAndBoundToTheirRow() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let reply = try await client.post("/api/customer/auth/request-magic-link", ["email": Self.jane])
            #expect(reply.status == .ok)
            let code = try await client.latestCode(to: Self.jane)
            try await server.withDatabase { database in
                let rows = try await database.withConnection { db in
                    try await db.raw("SELECT id, body_sealed FROM mail_queue").all()
                }
                #expect(rows.count == 1)
                let sealed = try #require(try rows.first?.decode(column: "body_sealed", as: String.self))
                #expect(!sealed.contains(code))
                #expect(!(String(decoding: Data(base64Encoded: sealed) ?? Data(), as: UTF8.self)).contains(code))
                // Copied to another row, the body does not open.
                let id = try #require(try rows.first?.decode(column: "id", as: String.self))
                try await database.withConnection { db in
                    try await db.raw(
                        """
                        INSERT INTO mail_queue (id, recipient, subject, body_sealed, status, attempts, uncertain, next_attempt_at, created_at)
                        SELECT 'copy', 'mallory@example.test', subject, body_sealed, 'sent', 1, 0, next_attempt_at, created_at
                        FROM mail_queue WHERE id = \(bind: id)
                        """
                    ).run()
                }
                let queue = MailQueue(database: database, encryptionKey: try server.settings.resolvedEncryptionKey())
                await #expect(throws: (any Error).self) { try await queue.messages(to: "mallory@example.test") }
            }
        }
    }

    @Test func concurrentWorkersClaimEachMessageOnce() async throws {
        let server = try await TestServer()
        try await server.run { _ in
            let key = try server.settings.resolvedEncryptionKey()
            try await server.withDatabase { database in
                let queue = MailQueue(database: database, encryptionKey: key)
                let now = Date().timeIntervalSince1970
                for index in 0..<60 {
                    let message = MailMessage(to: "user\(index)@example.test", subject: "s", text: "t", sentAt: "")
                    let outgoing = try queue.seal(message, now: now)
                    try await database.transaction { db in try await outgoing.enqueue(on: db) }
                }
            }
            // Four workers, each with its own connection pool (as separate instances), claim
            // in small batches until nothing is left.
            let claimed = try await race(4) {
                try await server.withDatabase { database in
                    let queue = MailQueue(database: database, encryptionKey: key)
                    var mine: [String] = []
                    while true {
                        let batch = try await queue.claim(limit: 3, now: Date().timeIntervalSince1970 + 1, lease: 120)
                        if batch.isEmpty { return mine }
                        mine += batch.map(\.id)
                    }
                }
            }
            let all = claimed.flatMap { $0 }
            #expect(all.count == 60)
            #expect(Set(all).count == 60)
        }
    }

    @Test func deliveredBodiesAreErasedAfterTheRetentionPeriod() async throws {
        let server = try await TestServer { $0.mailRetention = 60 }
        try await server.run { client in
            let reply = try await client.post("/api/customer/auth/request-magic-link", ["email": Self.jane])
            #expect(reply.status == .ok)
            try await waitUntil("the message delivered to the outbox") {
                try await MailDeliveryTests.entries(client).first?.status == "sent"
            }
            #expect(try await client.mail(to: Self.jane).count == 1)
            #expect(try Mailbox.outbox(to: Self.jane, dataDirectory: server.settings.dataDirectory).count == 1)
            // Past the retention period (and the worker's erase interval), the body goes; the entry stays.
            server.clock.advance(by: 700)
            try await waitUntil("the body erased") { try await client.mail(to: Self.jane).isEmpty }
            let entry = try #require(try await MailDeliveryTests.entries(client).first)
            #expect(entry.status == "sent")
            #expect(entry.hasBody == 0)
        }
    }
}

@Suite struct RetryScheduleTests {
    static let schedule: RetrySchedule = {
        var settings = ServerSettings()
        settings.mailRetryLimit = 3600
        return RetrySchedule(settings: settings)
    }()

    @Test func delaysDoubleWithJitterUpToAMinute() {
        // Equal jitter: between half and all of 2 s, 4 s, 8 s, ... capped at 60 s.
        for (attempt, step) in [(1, 2.0), (2, 4.0), (3, 8.0), (5, 32.0), (6, 60.0), (40, 60.0)] {
            #expect(Self.schedule.delay(afterAttempt: attempt, random: 0) == step / 2)
            #expect(Self.schedule.delay(afterAttempt: attempt, random: 1) == step)
        }
        let spread = Set((0..<50).map { _ in Self.schedule.delay(afterAttempt: 4) })
        #expect(spread.count > 40, "jittered")
        #expect(spread.allSatisfy { (8...16).contains($0) })
    }

    @Test func noRetryPastTheLimit() {
        #expect(Self.schedule.nextAttempt(afterAttempt: 1, queuedAt: 0, now: 100) != nil)
        #expect(Self.schedule.nextAttempt(afterAttempt: 1, queuedAt: 0, now: 3600) == nil)
        #expect(Self.schedule.nextAttempt(afterAttempt: 9, queuedAt: 0, now: 3570) == nil)
    }

    /// The worker meets a closed database (a server that could not start, a shutdown): it
    /// stops at once with one warning, instead of looping on the error (15,000 log lines a
    /// second before) and holding the process past SIGTERM. A cancelled worker stops too.
    @Test(.timeLimit(.minutes(3))) func theWorkerStopsWhenTheDatabaseClosesOrItIsCancelled() async throws {
        struct NoTransport: MailTransport {
            func deliver(_ message: MailMessage, messageID: String, handingOver: @escaping @Sendable () async throws -> Void) async throws {}
        }
        let settings = TestServer.defaultSettings()
        defer { try? FileManager.default.removeItem(atPath: settings.dataDirectory) }
        let logs = CapturedLogs()
        let database = try await Database.openMigrated(settings: settings, logger: TestServer.quietLogger)
        let queue = MailQueue(database: database, encryptionKey: try settings.resolvedEncryptionKey())
        var worker = MailDeliveryService(
            queue: queue, transport: NoTransport(), settings: settings, clock: .system, logger: logs.logger, metrics: nil)
        worker.pollInterval = 0.01
        await database.close()
        // The test's time limit catches a hang (3 minutes: on a loaded machine it once took 2);
        // the one warning below shows that the worker did not loop.
        try await worker.run()
        #expect(logs.lines.value.filter { $0.hasPrefix("warning") || $0.hasPrefix("error") } == ["warning Mail queue: the database closed; delivery stops "])

        // An open database and a cancelled task: the worker returns as well.
        let open = try await Database.openMigrated(settings: settings, logger: TestServer.quietLogger)
        let running = MailDeliveryService(
            queue: MailQueue(database: open, encryptionKey: try settings.resolvedEncryptionKey()), transport: NoTransport(),
            settings: settings, clock: .system, logger: TestServer.quietLogger, metrics: nil)
        let task = Task { try await running.run() }
        // Cancelled once it is in its loop (it has looked for mail and waits for more), not
        // before it started.
        try await waitUntil("the worker's first idle pass") { running.queue.wakeup.waits > 0 }
        task.cancel()
        try await task.value
        await open.close()
    }
}
