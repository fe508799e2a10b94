import Crypto
import Foundation

/// A random secret generated once into the data directory (mode 0600) and read back on every
/// start, so development servers need no configuration and tokens survive restarts.
enum GeneratedSecret {
    static func loadOrCreate(named name: String, in directory: String) throws -> String {
        let path = URL(fileURLWithPath: directory).appendingPathComponent(name).path
        if let existing = try? String(contentsOfFile: path, encoding: .utf8) {
            let trimmed = existing.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.utf8.count >= 32 { return trimmed }
        }
        let secret = RandomToken.base64URL(byteCount: 32)
        try DataDirectory.create(directory)
        // Create with 0600 before writing so the secret is never readable by others, even briefly.
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw SettingsError("cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        fchmod(fd, 0o600)
        let bytes = Array((secret + "\n").utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else {
            throw SettingsError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        return secret
    }
}

/// The data directory, created with mode 0700 on first use.
enum DataDirectory {
    static func create(_ path: String) throws {
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }
}
