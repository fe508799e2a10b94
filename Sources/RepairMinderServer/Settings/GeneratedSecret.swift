import Crypto
import Foundation

/// A random secret generated once into the data directory (mode 0600) and read back on every
/// start, so development servers need no configuration and tokens survive restarts.
///
/// An existing file is never overwritten: a short or unreadable one stops the server with a
/// clear message (overwriting it would orphan what the old key sealed). Two processes starting
/// together agree on one secret: each writes a candidate to a file of its own and links it
/// into place, which succeeds for only one of them; all then read what is in place.
enum GeneratedSecret {
    static func loadOrCreate(named name: String, in directory: String) throws -> String {
        let path = URL(fileURLWithPath: directory).appendingPathComponent(name).path
        if FileManager.default.fileExists(atPath: path) { return try read(path) }
        try DataDirectory.create(directory)
        try SecretFile.createIfAbsent(RandomToken.base64URL(byteCount: 32) + "\n", at: path)
        return try read(path)
    }

    /// The secret generated before, if there is one (never creates it).
    static func loadIfPresent(named name: String, in directory: String) throws -> String? {
        let path = URL(fileURLWithPath: directory).appendingPathComponent(name).path
        return FileManager.default.fileExists(atPath: path) ? try read(path) : nil
    }

    private static func read(_ path: String) throws -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw SettingsError("cannot read \(path); fix its permissions, or give the secret as a setting (it is never overwritten)")
        }
        let secret = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard secret.utf8.count >= 32 else {
            throw SettingsError("\(path) holds no usable secret (under 32 bytes); restore it, or remove it to generate a new one (what the old one sealed or signed is then lost)")
        }
        return secret
    }

}

/// Files that hold secrets: mode 0600 from their creation, never readable by others, and
/// never seen half-written.
enum SecretFile {
    /// Puts `text` at `path` unless a file is already there. Two processes starting together
    /// agree on one file: each writes a candidate of its own and links it into place, which
    /// succeeds for only one of them; read what is in place afterwards.
    static func createIfAbsent(_ text: String, at path: String) throws {
        let candidate = try writeCandidate(text, beside: path)
        defer { unlink(candidate) }
        // link(2) fails if the name exists: the file in place is always a whole one.
        if link(candidate, path) != 0, errno != EEXIST {
            throw SettingsError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Replaces the file at `path` with `text` in one step (rename(2)): a reader sees the old
    /// file or the new one, whole.
    static func replace(_ text: String, at path: String) throws {
        let candidate = try writeCandidate(text, beside: path)
        guard rename(candidate, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(candidate)
            throw SettingsError("cannot replace \(path): \(reason)")
        }
    }

    /// A new file beside `path` holding `text`, 0600 from its creation and synced to disk.
    private static func writeCandidate(_ text: String, beside path: String) throws -> String {
        let candidate = path + ".\(getpid()).\(RandomToken.base64URL(byteCount: 6))"
        let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw SettingsError("cannot write \(candidate): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        guard Foundation.write(fd, bytes, bytes.count) == bytes.count, fsync(fd) == 0 else {
            unlink(candidate)
            throw SettingsError("cannot write \(candidate): \(String(cString: strerror(errno)))")
        }
        return candidate
    }
}

/// The data directory, created with mode 0700 on first use.
enum DataDirectory {
    static func create(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw SettingsError("cannot use the data directory \(path): \(PlainReason.of(error))")
        }
        guard FileManager.default.isWritableFile(atPath: path) else {
            throw SettingsError("cannot use the data directory \(path): permission denied (the server must be able to write there)")
        }
    }

    /// Makes the directory's entries durable (renames, new files): what follows may depend on them.
    static func synchronize(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_DIRECTORY)
        guard fd >= 0, fsync(fd) == 0 else {
            let reason = String(cString: strerror(errno))
            if fd >= 0 { close(fd) }
            throw SettingsError("cannot sync the data directory \(path): \(reason)")
        }
        close(fd)
    }
}
