import Foundation
import Testing

/// `repairminder outbox --status`: the totals under the entries are the whole queue's, however
/// few entries `--last` shows (issue 29 item 4: they counted only the rows shown).
@Suite struct OutboxStatusTests {
    /// Runs SQL statements on the data directory's database and commits them.
    static func execute(_ dataDir: String, _ script: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c", "import sqlite3,sys; c = sqlite3.connect(sys.argv[1], timeout=30); c.executescript(sys.argv[2]); c.commit()",
            dataDir + "/repairminder.sqlite", script,
        ]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
    }

    @Test func theTotalsCountEveryRowNotOnlyTheOnesShown() throws {
        let dataDir = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        #expect(try CommandLineTests.run(["migrate", "--data-dir", dataDir]).status == 0)
        let now = Date().timeIntervalSince1970
        // Oldest first: 2 sent, 1 failed, 1 queued, then 1 a worker holds (sending), to two addresses.
        let rows = [("sent", "a@x.test", "NULL"), ("sent", "b@x.test", "NULL"), ("failed", "a@x.test", "NULL"),
                    ("queued", "a@x.test", "NULL"), ("queued", "b@x.test", String(now + 600))]
        try Self.execute(
            dataDir,
            rows.enumerated().map { index, row in
                """
                INSERT INTO mail_queue (id, recipient, subject, status, attempts, uncertain, next_attempt_at, claimed_until, created_at)
                VALUES ('m\(index)', '\(row.1)', 'Message \(index)', '\(row.0)', 1, 0, \(now), \(row.2), \(now - 100 + Double(index)));
                """
            }.joined(separator: "\n"))

        let last = try CommandLineTests.run(["outbox", "--status", "--last", "2", "--data-dir", dataDir])
        #expect(last.status == 0, "\(last.error)")
        #expect(last.output.contains("Message 3") && last.output.contains("Message 4") && !last.output.contains("Message 2"), "\(last.output)")
        #expect(last.output.hasSuffix("\n5 in the queue (the last 2 shown): 1 queued, 1 sending, 2 sent, 1 failed\n"), "\(last.output)")

        let all = try CommandLineTests.run(["outbox", "--status", "--data-dir", dataDir])
        #expect(all.output.hasSuffix("\n5 in the queue: 1 queued, 1 sending, 2 sent, 1 failed\n"), "\(all.output)")

        // With --to, the totals are that address's.
        let one = try CommandLineTests.run(["outbox", "--status", "--to", "a@x.test", "--last", "1", "--data-dir", dataDir])
        #expect(one.output.hasSuffix("\n3 in the queue for a@x.test (the last 1 shown): 1 queued, 0 sending, 1 sent, 1 failed\n"), "\(one.output)")
    }
}
