import Foundation

/// Credentials as files in a private directory (mode 0700, files 0600), replaced atomically:
/// for Linux and command-line use, where there is no Keychain.
public struct FileCredentialStore: CredentialStore {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// `$XDG_CONFIG_HOME/repairminder` or `~/.config/repairminder`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("repairminder")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".config/repairminder")
    }

    private func url(_ key: CredentialKey) -> URL { directory.appendingPathComponent(key.rawValue + ".json") }

    public func read(_ key: CredentialKey) throws -> Data? {
        let path = url(key).path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try Data(contentsOf: url(key))
    }

    public func write(_ data: Data, for key: CredentialKey) throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // Write a private temporary file, then rename it over the old one: readers see the old
        // or the new credentials, never half of either.
        let temporary = directory.appendingPathComponent(".\(key.rawValue).\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown)
        }
        do {
            if rename(temporary.path, url(key).path) != 0 { throw CocoaError(.fileWriteUnknown) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    public func delete(_ key: CredentialKey) throws {
        let path = url(key).path
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
    }
}
