import Foundation
import Logging
import RepairMinderModels

/// The server's log: one line per event on standard error, written whole (lines of concurrent
/// requests never interleave), as `--log-format` says:
/// - `text`: swift-log's `StreamLogHandler` lines,
///   `2026-11-26T10:00:00+0000 info repairminder : request_id=… [RepairMinderServer] message`;
/// - `json`: one JSON object, for a log collector: `timestamp` (ISO 8601, UTC, milliseconds),
///   `level`, `message`, `label`, `source`, then each metadata key (`request_id`, `route`, ...)
///   as a field of its own, numbers as JSON numbers (`status`, `duration_ms`); a metadata key that would replace one of those five is written
///   with a `meta_` prefix instead.
///
/// Either way every control and bidi character of the message and the metadata (a request's
/// path, a stored name) is escaped (`TextCharacters`): a log line cannot clear the screen of
/// whoever tails it, or show its text in another order than it was written.
public struct LineLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let label: String
    private let format: ServerSettings.LogFormat
    private let write: @Sendable (String) -> Void

    public init(
        label: String, format: ServerSettings.LogFormat, write: @escaping @Sendable (String) -> Void = LineLogHandler.standardError
    ) {
        self.label = label
        self.format = format
        self.write = write
    }

    /// Writes a whole line at once; a write that fails (the collector's pipe closed) loses the
    /// line rather than stopping the server.
    public static let standardError: @Sendable (String) -> Void = { line in try? FileHandle.standardError.write(contentsOf: Data(line.utf8)) }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 })
        switch format {
        case .text:
            let fields = merged.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
            write(TextCharacters.escaped("\(Self.localTimestamp()) \(event.level) \(label) :\(fields) [\(event.source)] \(event.message)") + "\n")
        case .json:
            var fields: [String: Any] = [
                "timestamp": Self.utcTimestamp(Date()), "level": event.level.rawValue, "message": "\(event.message)", "label": label,
                "source": event.source,
            ]
            for (key, value) in merged { fields[fields[key] == nil ? key : "meta_\(key)"] = Self.plain(value) }
            guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
            write(TextCharacters.escapedJSON(String(decoding: data, as: UTF8.self)) + "\n")
        }
    }

    /// A metadata value as JSON: numbers given as numbers (`status`, `duration_ms`) stay
    /// numbers, so a collector can compare and sum them; anything else is its text.
    private static func plain(_ value: Logger.MetadataValue) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let number as Int): number
        case .stringConvertible(let number as Double) where number.isFinite: number
        case .stringConvertible(let number as any BinaryInteger): Int(truncatingIfNeeded: number)
        case .stringConvertible(let convertible): convertible.description
        case .array(let values): values.map(plain)
        case .dictionary(let values): values.mapValues(plain)
        }
    }

    private static func utcTimestamp(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }

    /// Local time with its offset, as `StreamLogHandler` writes it.
    private static func localTimestamp() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        var buffer = [Int8](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
