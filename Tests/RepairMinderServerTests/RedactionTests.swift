import Foundation
import Testing

@testable import RepairMinderServer

/// Issue 25, item 3 (in part): `serve --verbose` listed its services with everything they
/// hold, the encryption key's bytes included. No type holding a key, secret or password
/// prints it, however it is printed.
@Suite struct RedactionTests {
    static let key = "an-encryption-key-of-at-least-32-bytes!"
    static let jwtSecret = "a-signing-secret-of-at-least-32-bytes!!"
    static let smtpPassword = "smtp-p4ssw0rd-never-printed"

    /// Every way Swift renders a value.
    static func renderings(_ value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), String(reflecting: value), dumped, "\([value])"]
    }

    @Test func secretsDoNotPrint() async throws {
        let box = SecretBox(key: Self.key)
        var settings = ServerSettings()
        settings.jwtSecret = Self.jwtSecret
        settings.encryptionKey = Self.key
        settings.smtpURL = "smtps://mailer:\(Self.smtpPassword)@mail.example:465"
        let pair = try await TokenSigner.forTests()
        let values: [Any] = [
            box, SecretHashing(masterKey: Self.key), try await TokenSigner.forTests(.hs256, secret: Self.jwtSecret), pair, pair.keys,
            pair.keys.signing, SigningKeySet(keys: [pair.keys.signing]), settings, try SMTPServerAddress(url: try #require(settings.smtpURL)),
        ]
        let forbidden = [Self.key, Self.jwtSecret, Self.smtpPassword, try #require(pair.keys.signing.d)]
        // Key bytes print as a list of numbers: eight in a row is one.
        let byteList = try NSRegularExpression(pattern: "([0-9]{1,3}, ){8}")
        for value in values {
            for rendering in Self.renderings(value) {
                for secret in forbidden { #expect(!rendering.contains(secret), "\(type(of: value)) printed a secret: \(rendering)") }
                #expect(!rendering.contains("keyBytes") && !rendering.contains("password:"), "\(rendering)")
                let range = NSRange(rendering.startIndex..., in: rendering)
                #expect(byteList.firstMatch(in: rendering, range: range) == nil, "bytes in \(rendering)")
            }
        }
    }
}
