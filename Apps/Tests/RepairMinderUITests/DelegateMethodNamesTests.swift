import Foundation
import Testing

/// Apple's delegate methods are Objective-C `optional` requirements, which the stand-ins model
/// as protocol requirements with default implementations. A misspelt method then compiles and
/// is never called; Xcode warns of a near miss for `@objc` protocols, Swift on Linux (no
/// Objective-C) does not for a conformance in the type's own declaration. So this test holds
/// every method of a type in the screens that adopts one of the stand-ins' Objective-C
/// protocols (those refining `NSObjectProtocol`) to the protocol's requirement names: a method
/// whose base name is a requirement's, or within two letters of one, must be a requirement.
/// The names are the stand-ins', which are Apple's (their files name the headers); a method
/// Apple has and the stand-in lacks is added to the stand-in first.
@Suite struct DelegateMethodNamesTests {
    @Test func theScreensDelegateMethodsAreApples() throws {
        let problems = try Self.misnamedDelegateMethods(in: SwiftSourceText.files(under: "Sources/RepairMinderUI"))
        #expect(problems.isEmpty, "\(problems)")
    }

    /// A planted misspelling (`didCompleteWithEror`) in the passkey delegate is found.
    @Test func findsAMisspeltDelegateMethod() throws {
        var screens = try SwiftSourceText.files(under: "Sources/RepairMinderUI")
        let file = "Platform/AuthorizationSession.swift"
        screens[file] = screens[file]!.replacingOccurrences(of: "didCompleteWithError error", with: "didCompleteWithEror error")
        let problems = try Self.misnamedDelegateMethods(in: screens)
        #expect(problems == ["Platform/AuthorizationSession.swift: authorizationController(controller:didCompleteWithEror:)"])
    }

    /// A misspelt base name (`authorizationControler`) is found too.
    @Test func findsAMisspeltDelegateBaseName() throws {
        var screens = try SwiftSourceText.files(under: "Sources/RepairMinderUI")
        let file = "Platform/AuthorizationSession.swift"
        screens[file] = screens[file]!.replacingOccurrences(
            of: "func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization",
            with: "func authorizationControler(controller: ASAuthorizationController, didCompleteWithAuthorization")
        let problems = try Self.misnamedDelegateMethods(in: screens)
        #expect(problems == ["Platform/AuthorizationSession.swift: authorizationControler(controller:didCompleteWithAuthorization:)"])
    }

    /// The requirement names of each Objective-C protocol the stand-ins declare.
    static func objectiveCProtocols() throws -> [String: Set<String>] {
        var protocols: [String: Set<String>] = [:]
        for code in try SwiftSourceText.files(under: "StandIns").values {
            for match in code.matches(of: /protocol\s+(\w+)\s*:[^{]*NSObjectProtocol[^{]*\{/) {
                let open = code.index(before: match.range.upperBound)
                protocols[String(match.output.1)] = Set(SwiftSourceText.functionNames(in: SwiftSourceText.body(in: code, from: open)))
            }
        }
        return protocols
    }

    /// "file: name" of each method that is near a requirement of its type's Objective-C protocols but is none.
    static func misnamedDelegateMethods(in screens: [String: String]) throws -> [String] {
        let protocols = try objectiveCProtocols()
        var problems: [String] = []
        for (file, code) in screens.sorted(by: { $0.key < $1.key }) {
            for match in code.matches(of: /(?:class|struct|enum|actor|extension)\s+\w+(?:<[^>{]*>)?\s*:([^{]*)\{/) {
                let adopted = match.output.1.split(whereSeparator: { ",& \n".contains($0) }).map { String($0) }.compactMap { protocols[$0] }
                let requirements = adopted.reduce(into: Set<String>()) { $0.formUnion($1) }
                guard !requirements.isEmpty else { continue }
                let body = SwiftSourceText.body(in: code, from: code.index(before: match.range.upperBound))
                for name in SwiftSourceText.functionNames(in: body) where !requirements.contains(name) {
                    let base = name.prefix { $0 != "(" }
                    if requirements.contains(where: { Self.distance($0.prefix { $0 != "(" }, base) <= 2 }) {
                        problems.append("\(file): \(name)")
                    }
                }
            }
        }
        return problems
    }

    /// Levenshtein distance.
    static func distance(_ a: Substring, _ b: Substring) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return a.isEmpty ? b.count : row[b.count]
    }
}
