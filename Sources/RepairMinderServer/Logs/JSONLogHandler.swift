import Foundation
import Logging
import RepairMinderModels

/// `--log-format json`: one JSON object per line on standard error, for a log collector:
/// `timestamp` (ISO 8601, UTC, milliseconds), `level`, `message`, `label`, `source`, then each
/// metadata key (`request_id`, `route`, ...) as a field of its own. A metadata key that would
/// replace one of those five is written with a `meta_` prefix instead.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let label: String
    private let write: @Sendable (String) -> Void

    public init(label: String, write: @escaping @Sendable (String) -> Void = JSONLogHandler.standardError) {
        self.label = label
        self.write = write
    }

    /// Writes a whole line at once, so lines of concurrent requests never interleave; a write
    /// that fails (the collector's pipe closed) loses the line rather than stopping the server.
    public static let standardError: @Sendable (String) -> Void = { line in try? FileHandle.standardError.write(contentsOf: Data(line.utf8)) }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields: [String: Any] = [
            "timestamp": Self.timestamp(Date()), "level": event.level.rawValue, "message": "\(event.message)", "label": label,
            "source": event.source,
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            fields[fields[key] == nil ? key : "meta_\(key)"] = Self.plain(value)
        }
        guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        // Control and bidi characters from a request (a path, a name) reach the collector
        // escaped, never raw to whoever tails the file.
        write(TextCharacters.escapedJSON(String(decoding: data, as: UTF8.self)) + "\n")
    }

    private static func plain(_ value: Logger.MetadataValue) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible): convertible.description
        case .array(let values): values.map(plain)
        case .dictionary(let values): values.mapValues(plain)
        }
    }

    private static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }
}
