import Foundation
import TestSupport
import Testing

/// `repairminder serve` (and `mail test`) meeting a broken environment: each failure is one
/// line naming the problem in plain words, exit 1 (`mail test`: 3), fast, and nothing left
/// running or created (issue 29, item 2).
@Suite struct StartupFailureTests {
    struct Finished {
        let status: Int32
        let output: String
        var lines: [Substring] { output.split(separator: "\n") }
    }

    /// Runs the binary, killing it after `deadline` seconds (then the status is SIGKILL's).
    static func run(_ arguments: [String], deadline: Double = 20) throws -> Finished {
        let process = Process()
        process.executableURL = CommandLineTests.binary
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let killer = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + deadline, execute: killer)
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        killer.cancel()
        return Finished(
            status: process.terminationStatus, output: String(decoding: output, as: UTF8.self))
    }

    @Test func aSecondServerOnTheSamePortExitsAtOnce() throws {
        let port = try freeLoopbackPort()
        let first = Process(), dataDir = CommandLineTests.temporaryDirectory(), otherDir = CommandLineTests.temporaryDirectory()
        defer {
            first.terminate()
            first.waitUntilExit()
            try? FileManager.default.removeItem(atPath: dataDir)
            try? FileManager.default.removeItem(atPath: otherDir)
        }
        first.executableURL = CommandLineTests.binary
        first.arguments = ["serve", "--data-dir", dataDir, "--port", String(port)]
        first.standardOutput = FileHandle.nullDevice
        first.standardError = FileHandle.nullDevice
        try first.run()
        try waitUntilBlocking("serve listening", interval: .milliseconds(100)) { ClientCommandTests.Server.answers(port) }

        let second = try Self.run(["serve", "--data-dir", otherDir, "--port", String(port)])
        // 1, not SIGKILL's: it exited by itself, rather than waiting to be killed at the deadline.
        #expect(second.status == 1)
        #expect(second.lines.count < 10)
        #expect(second.lines == ["error: cannot listen on 127.0.0.1:\(port): the address is already in use (is another server running there?)"])
        // Refused before anything was created for it.
        #expect(!FileManager.default.fileExists(atPath: otherDir))
        #expect(first.isRunning)
    }

    @Test func aHostThatIsNotThisMachinesIsOneLine() throws {
        let dataDir = CommandLineTests.temporaryDirectory()
        let unknown = try Self.run(["serve", "--data-dir", dataDir, "--host", "no-such-host.invalid"])
        #expect(unknown.status == 1)
        #expect(unknown.lines == [#"error: cannot listen on no-such-host.invalid:8080: "no-such-host.invalid" is not a host name or address this machine can resolve"#])
        // TEST-NET-1 (RFC 5737): never an address of this machine.
        let foreign = try Self.run(["serve", "--data-dir", dataDir, "--host", "192.0.2.1", "--port", "8080"])
        #expect(foreign.status == 1)
        #expect(foreign.lines == ["error: cannot listen on 192.0.2.1:8080: that address is not one of this machine's"])
        #expect(!FileManager.default.fileExists(atPath: dataDir))
    }

    @Test func aDataDirectoryThatCannotBeUsedIsOneLine() throws {
        let file = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data("not a directory".utf8).write(to: URL(fileURLWithPath: file))
        let inTheWay = try Self.run(["serve", "--data-dir", file, "--port", String(try freeLoopbackPort())])
        #expect(inTheWay.status == 1)
        #expect(inTheWay.lines == ["error: cannot use the data directory \(file): a file of that name is in the way"])
        let below = try Self.run(["serve", "--data-dir", file + "/data", "--port", String(try freeLoopbackPort())])
        #expect(below.status == 1)
        #expect(below.lines == ["error: cannot use the data directory \(file)/data: a part of the path is a file, not a directory"])
    }

    @Test func aRefusedDatabaseIsOneLine() throws {
        let dataDir = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let closed = try freeLoopbackPort()
        let refused = try Self.run([
            "serve", "--data-dir", dataDir, "--port", String(try freeLoopbackPort()),
            "--database-url", "postgres://user:secret@127.0.0.1:\(closed)/repairminder",
        ])
        #expect(refused.status == 1)
        #expect(refused.lines == ["error: cannot connect to PostgreSQL at 127.0.0.1:\(closed)/repairminder: connection refused (nothing listens there)"])
        #expect(!refused.output.contains("secret"))
    }

    @Test func aRefusedMailServerIsOneLine() throws {
        let closed = try freeLoopbackPort()
        let refused = try Self.run([
            "mail", "test", "--to", "you@example.test", "--smtp-url", "smtp://127.0.0.1:\(closed)", "--mail-from", "shop@example.test",
        ])
        #expect(refused.status == 3)
        #expect(refused.lines.last == "error: connection refused (nothing listens there)")
        #expect(refused.lines.count == 2)
    }
}
