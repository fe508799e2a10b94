#if os(Linux)
import Foundation
import Testing

/// The stand-ins' availability domains follow the UI target's platforms (Package.swift): a
/// declaration newer than the iOS deployment target carries the domain of its version, one
/// no newer does not, and no stand-in needs a macOS version above the macOS deployment target
/// (for which there are no domains).
@Suite struct StandInAvailabilityTests {
    @Test func everyDeclarationNewerThanTheDeploymentTargetCarriesItsDomain() throws {
        let manifest = try String(contentsOf: SwiftSourceText.appsRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let iOS = try #require(manifest.firstMatch(of: /\.iOS\(\.v(\d+)\)/).map { [Int($0.output.1)!, 0] })
        let macOS = try #require(manifest.firstMatch(of: /\.macOS\(\.v(\d+)\)/).map { [Int($0.output.1)!, 0] })
        let domains = try AvailabilityDomains.current()
        #expect(!domains.domains.isEmpty && domains.domains.allSatisfy { iOS.lexicographicallyPrecedes($0.version) })
        var problems: [String] = []
        for (file, code) in try SwiftSourceText.files(under: "StandIns") {
            // Each declaration's attributes: the run of `@available(…)` lines before it.
            for match in code.matches(of: /(?:@available\([^)]*\)\s*)+/) {
                let attributes = String(match.output)
                guard let version = AvailabilityDomains.iOSVersion(in: attributes) else { continue }
                let needed = iOS.lexicographicallyPrecedes(version) ? domains.domains(upTo: version).suffix(1) : []
                let carried = domains.domains.map(\.name).filter { attributes.contains("@available(\($0))") }
                if Array(needed) != carried { problems.append("\(file): \(attributes) wants \(Array(needed))") }
                if let mac = attributes.firstMatch(of: /macOS\s+(\d+(?:\.\d+)?)/) {
                    let parts = mac.output.1.split(separator: ".").map { Int($0)! } + [0]
                    if macOS.lexicographicallyPrecedes(Array(parts.prefix(2))) { problems.append("\(file): \(attributes) is newer than macOS \(macOS)") }
                }
            }
        }
        #expect(problems.isEmpty, "\(problems)")
    }
}
#endif
