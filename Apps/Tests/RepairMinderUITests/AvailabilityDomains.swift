#if os(Linux)
import Foundation

/// The stand-ins' availability domains (StandIns/StandInAvailability/include): one per iOS
/// version above the deployment target that a stand-in declaration needs, e.g. `iOS_18_0`.
/// Linux does not check `@available(iOS 18, *)`; these domains it does check, once
/// `UITypeCheckTests` makes them dynamic and this type adds them to the screens' own checks.
struct AvailabilityDomains {
    /// Each domain's name and the iOS version it stands for, oldest first.
    let domains: [(name: String, version: [Int])]

    static let includeDirectory = UITypeCheckTests.packageRoot.appendingPathComponent("StandIns/StandInAvailability/include")

    /// The domains the header declares.
    static func current() throws -> AvailabilityDomains {
        let header = try String(
            contentsOf: includeDirectory.appendingPathComponent("StandInAvailability.h"), encoding: .utf8)
        return AvailabilityDomains(header: header)
    }

    init(header: String) {
        let pattern = /CLANG_DYNAMIC_AVAILABILITY_DOMAIN\((iOS_(\d+)_(\d+))/
        domains = header.matches(of: pattern).map { (String($0.output.1), [Int($0.output.2)!, Int($0.output.3)!]) }
            .sorted { $0.version.lexicographicallyPrecedes($1.version) }
    }

    /// The domains an iOS version implies: every one up to it.
    func domains(upTo version: [Int]) -> [String] {
        domains.filter { !version.lexicographicallyPrecedes($0.version) }.map(\.name)
    }

    /// `source` with each `#available(iOS X, …)` followed by `, #available(<domain>)` and each
    /// `@available(iOS X, …)` by ` @available(<domain>)` for the domains up to X, and the
    /// domains' module imported where one was added.
    func addingDomainChecks(to source: String) -> String {
        var changed = false
        let checks = /(#|@)available\(([^()]*)\)/
        let text = source.replacing(checks) { match -> String in
            let whole = String(match.output.0)
            guard let version = Self.iOSVersion(in: String(match.output.2)) else { return whole }
            let names = domains(upTo: version)
            guard !names.isEmpty else { return whole }
            changed = true
            return match.output.1 == "#"
                ? whole + names.map { ", #available(\($0))" }.joined()
                : whole + names.map { " @available(\($0))" }.joined()
        }
        return changed ? "import StandInAvailability\n" + text : text
    }

    /// The iOS version in an availability list (`iOS 17.4, macOS 14.4, *`), if it names one.
    static func iOSVersion(in arguments: String) -> [Int]? {
        guard let match = arguments.firstMatch(of: /\biOS\s+(\d+(?:\.\d+)*)/) else { return nil }
        var parts = match.output.1.split(separator: ".").map { Int($0)! }
        while parts.count < 2 { parts.append(0) }
        return parts
    }
}
#endif
