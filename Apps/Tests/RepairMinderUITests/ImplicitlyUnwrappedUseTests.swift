import Foundation
import Testing

/// Apple imports some properties as implicitly unwrapped (`Data!`: the assertion's `signature`,
/// `userID`, `rawAuthenticatorData`), and Swift force-unwraps them silently wherever a `Data`
/// is wanted: `assertion.signature.base64URLEncoded()` compiles and crashes on `nil`. No
/// compiler flags that, on Apple's platforms either, so this test does: each use of such a
/// property in the screens is explicit (`?`, `!`) or a binding in `if`/`guard` (`let x = a.signature`).
@Suite struct ImplicitlyUnwrappedUseTests {
    @Test func theScreensBindImplicitlyUnwrappedProperties() throws {
        let problems = try Self.hiddenUnwraps(in: SwiftSourceText.files(under: "Sources/RepairMinderUI"))
        #expect(problems.isEmpty, "\(problems)")
    }

    /// The use issue 41 found: the signature passed on as `Data`, force-unwrapped unseen.
    @Test func findsAHiddenForceUnwrap() throws {
        var screens = try SwiftSourceText.files(under: "Sources/RepairMinderUI")
        let file = "Platform/PlatformPasskeyAuthenticator.swift"
        screens[file] = screens[file]!.replacingOccurrences(
            of: "signature: signature.base64URLEncoded()", with: "signature: assertion.signature.base64URLEncoded()")
        let problems = try Self.hiddenUnwraps(in: screens)
        #expect(problems == ["Platform/PlatformPasskeyAuthenticator.swift: .signature"], "\(problems)")
    }

    /// The implicitly unwrapped properties the stand-ins declare (`var name: Type!`).
    static func implicitlyUnwrappedProperties() throws -> Set<String> {
        Set(try SwiftSourceText.files(under: "StandIns").values.flatMap { code in
            code.matches(of: /var\s+(\w+)\s*:\s*[\w.]+!/).map { String($0.output.1) }
        })
    }

    /// "file: .name" of each use that unwraps one silently.
    static func hiddenUnwraps(in screens: [String: String]) throws -> [String] {
        let names = try implicitlyUnwrappedProperties()
        var problems: [String] = []
        for (file, code) in screens.sorted(by: { $0.key < $1.key }) {
            for match in code.matches(of: /\.(\w+)/) where names.contains(String(match.output.1)) {
                let after = code[match.range.upperBound...].drop { $0 == " " }.first
                let before = code[..<match.range.lowerBound].suffix(200)
                let explicit = after == "?" || after == "!"
                let binding = before.wholeMatch(of: /(?s).*(?:\bif|\bguard|,)\s*let\s+\w+\s*=\s*[\w.]*/) != nil
                    && [",", "{", "\n"].contains(after ?? "\n")
                if !explicit && !binding { problems.append("\(file): .\(match.output.1)") }
            }
        }
        return problems
    }
}
