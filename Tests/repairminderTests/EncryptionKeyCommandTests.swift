import Foundation
import Testing

/// `repairminder keys rotate-encryption` as an operator runs it (the rotation itself is tested
/// against a live server in EncryptionKeyRotationTests).
@Suite(.serialized) struct EncryptionKeyCommandTests {
    @Test func developmentRotatesTheGeneratedKeyAndProductionNeedsThePreviousOne() throws {
        let dataDir = try CompanyAdministrationCommandTests.seeded()
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let keyFile = URL(fileURLWithPath: dataDir).appendingPathComponent("encryption-key").path
        let before = String(repeating: "b", count: 40) + "\n"
        FileManager.default.createFile(atPath: keyFile, contents: Data(before.utf8), attributes: [.posixPermissions: 0o600])

        let rotated = try CommandLineTests.run(["keys", "rotate-encryption", "--data-dir", dataDir], environment: [:])
        #expect(rotated.status == 0, "\(rotated.error)")
        #expect(rotated.output == "Sealed again under the new key: nothing; 0 values are under it now.\n")
        let after = try String(contentsOfFile: keyFile, encoding: .utf8)
        #expect(after != before)
        let previous = try String(contentsOfFile: keyFile + ".previous", encoding: .utf8)
        #expect(previous == before, "the old key is kept beside the new one")

        // A key given as a setting rotates only with the previous one beside it.
        let key = String(repeating: "n", count: 40)
        let missing = try CommandLineTests.run(
            ["keys", "rotate-encryption", "--data-dir", dataDir], environment: ["REPAIRMINDER_ENCRYPTION_KEY": key])
        #expect(missing.status == 1)
        #expect(missing.error.hasPrefix("error: --encryption-previous-key is not set: restart the servers"), "\(missing.error)")
        let given = try CommandLineTests.run(
            ["keys", "rotate-encryption", "--data-dir", dataDir],
            environment: ["REPAIRMINDER_ENCRYPTION_KEY": key, "REPAIRMINDER_ENCRYPTION_PREVIOUS_KEY": String(repeating: "o", count: 40)])
        #expect(given.status == 0, "\(given.error)")
    }
}
