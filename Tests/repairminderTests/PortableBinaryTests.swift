import Foundation
import RepairMinderServer
import TestSupport
import Testing

/// Issue 50, item 4: the built binary runs where it is copied, from an empty working directory,
/// with its two resource bundles beside it (or a symbolic link to it); without them it stops in
/// one line naming what it needs, before it touches the data directory.
@Suite(.serialized) struct PortableBinaryTests {
    @Test func aCopiedBinaryRunsFromAnEmptyDirectoryWithItsBundlesAndSaysWhatItNeedsWithout() async throws {
        let root = CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = FileManager.default
        let (install, work, links) = (root + "/opt", root + "/work", root + "/bin")
        for directory in [install, work, links] { try files.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        let copy = install + "/repairminder"
        try files.copyItem(atPath: CommandLineTests.binary.path, toPath: copy)

        // Alone: one line, exit 1, and the data directory is not even made.
        let alone = try Self.run(copy, ["serve", "--data-dir", root + "/data", "--port", String(try freeLoopbackPort())], in: work)
        #expect(alone.status == 1)
        #expect(
            alone.error == "error: \(ResourceBundles.names.joined(separator: " and ")) must be beside the binary, in \(install): copy them from the directory the binary was built in (docs/operating.md, §1)\n",
            "\(alone.error)")
        #expect(!files.fileExists(atPath: root + "/data"))

        // With its bundles, through a symbolic link, from an empty directory: it serves its pages.
        let built = CommandLineTests.binary.deletingLastPathComponent()
        for bundle in ResourceBundles.names {
            try files.copyItem(atPath: built.appendingPathComponent(bundle).path, toPath: install + "/" + bundle)
        }
        try files.createSymbolicLink(atPath: links + "/repairminder", withDestinationPath: copy)
        let port = try freeLoopbackPort()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: links + "/repairminder")
        server.arguments = ["serve", "--data-dir", root + "/data", "--port", String(port), "--bcrypt-cost", "4", "--drain-delay", "20"]
        server.currentDirectoryURL = URL(fileURLWithPath: work)
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { if server.isRunning { server.terminate() } }
        let base = "http://127.0.0.1:\(port)"
        try await waitUntil("the copy serving", timeout: .seconds(60), interval: .milliseconds(100)) {
            (try? await OperatorCommandTests.call(base + "/readyz", "GET").status) == 200
        }
        #expect(try await OperatorCommandTests.call(base + "/api/config", "GET").status == 200, "the models' bundle")
        #expect(try await OperatorCommandTests.call(base + "/console/sign-in", "GET").status == 200, "the server's bundle")
        // Issue 50, item 7: from a SIGTERM, readiness says "draining" while the server still
        // answers, for --drain-delay; then it stops, exit 0.
        // Both asked at once: on a loaded machine two calls in a row could outlast the window.
        server.terminate()
        async let readiness = OperatorCommandTests.call(base + "/readyz", "GET")
        async let liveness = OperatorCommandTests.call(base + "/livez", "GET")
        let (draining, live) = try await (readiness, liveness)
        #expect(draining.status == 503 && (draining.json["data"] as? [String: Any])?["status"] as? String == "draining", "\(draining)")
        #expect(live.status == 200)
        server.waitUntilExit()
        #expect(server.terminationStatus == 0)
        #expect(try files.contentsOfDirectory(atPath: work).isEmpty, "nothing written where it ran")
    }

    static func run(_ binary: String, _ arguments: [String], in directory: String) throws -> (status: Int32, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let err = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        try process.run()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: error, as: UTF8.self))
    }
}
