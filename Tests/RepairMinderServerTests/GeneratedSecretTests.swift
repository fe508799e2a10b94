import Foundation
import Testing

@testable import RepairMinderServer

/// Generated key files: one secret however many processes start at once, and never overwritten.
@Suite struct GeneratedSecretTests {
    @Test func serversStartingTogetherAgreeOnOneKey() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("secrets-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keys = try await race(16) { try GeneratedSecret.loadOrCreate(named: "encryption-key", in: directory) }
        #expect(Set(keys).count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["encryption-key"], "no candidate file left behind")
        let mode = try FileManager.default.attributesOfItem(atPath: directory + "/encryption-key")[.posixPermissions] as? Int
        #expect(mode.map { $0 & 0o777 } == 0o600)
        #expect(try GeneratedSecret.loadOrCreate(named: "encryption-key", in: directory) == keys.first)
    }

    @Test func aDamagedKeyFileStopsTheServerAndIsKept() async throws {
        let settings = TestServer.defaultSettings()
        defer { try? FileManager.default.removeItem(atPath: settings.dataDirectory) }
        try FileManager.default.createDirectory(atPath: settings.dataDirectory, withIntermediateDirectories: true)
        let path = settings.dataDirectory + "/encryption-key"
        try Data("too short\n".utf8).write(to: URL(fileURLWithPath: path))
        await #expect {
            _ = try await buildApplication(settings: settings, logger: TestServer.quietLogger)
        } throws: { error in
            "\(error)".contains(path) && "\(error)".contains("no usable secret")
        }
        #expect(FileManager.default.contents(atPath: path) == Data("too short\n".utf8))
    }
}
