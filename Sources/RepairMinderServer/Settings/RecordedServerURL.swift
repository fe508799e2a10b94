import Foundation

/// Where the server last said it is reached: `serve` writes its public URL (`--public-url`, or
/// where it listens) into the data directory at each start, so that an operator command that
/// builds links for the server's mail (`repairminder admin create`) names the server as it
/// runs, its port included, and not a default. Not a secret: readable by all.
public enum RecordedServerURL {
    static let fileName = "server-url"

    /// Records `settings.serverURL`; a data directory that cannot take it is left as it is
    /// (the command that needs it then asks for `--public-url`).
    public static func record(_ settings: ServerSettings) {
        let path = URL(fileURLWithPath: settings.dataDirectory).appendingPathComponent(fileName).path
        let temporary = path + ".new"
        guard FileManager.default.createFile(atPath: temporary, contents: Data((settings.serverURL + "\n").utf8)) else { return }
        if rename(temporary, path) != 0 { try? FileManager.default.removeItem(atPath: temporary) }
    }

    /// The URL the last `serve` on `dataDirectory` recorded, if any.
    public static func read(in dataDirectory: String) -> String? {
        let path = URL(fileURLWithPath: dataDirectory).appendingPathComponent(fileName).path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let url = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return url.isEmpty ? nil : url
    }
}
