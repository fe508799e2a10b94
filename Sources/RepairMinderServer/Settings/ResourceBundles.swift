import Foundation

/// The resource bundles the server reads: its own (the console's templates, the common
/// passwords) and the models' (the app configuration of `/api/config`). SwiftPM puts them
/// beside the binary it builds; its accessor looks there, then in the build directory compiled
/// into the binary, and crashes with a backtrace when neither has them. So a binary copied
/// without them crashed at its first page (after applying migrations), and one copied on the
/// build host worked only while that build directory lived (issue 50, item 4).
public enum ResourceBundles {
    /// The bundles' directory names, as SwiftPM names them (`<package>_<target>.resources`).
    public static let names = ["RepairMinder_RepairMinderServer.resources", "RepairMinder_RepairMinderModels.resources"]

    /// Refuses, in one line naming the directory and what is missing, a binary whose bundles
    /// are not beside it; checked before anything is read or written. Never the build
    /// directory: a binary behaves the same on every machine.
    public static func requireBesideExecutable() throws {
        let directory = Bundle.main.bundleURL
        let missing = names.filter { !FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path) }
        guard !missing.isEmpty else { return }
        throw SettingsError(
            "\(missing.joined(separator: " and ")) must be beside the binary, in \(directory.path): copy \(missing.count == 1 ? "it" : "them") from the directory the binary was built in (docs/operating.md, §1)"
        )
    }
}
