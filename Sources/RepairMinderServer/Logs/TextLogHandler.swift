import Foundation
import Logging
import RepairMinderModels

/// `--log-format text` (the default): swift-log's `StreamLogHandler` lines on standard error,
/// `2026-11-26T10:00:00+0000 info repairminder : request_id=… [RepairMinderServer] message`,
/// with every control and bidi character of the message and the metadata escaped
/// (`TextCharacters.escaped`): a request's path or a stored name cannot clear an operator's
/// screen or reorder what a log line says.
public struct TextLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let label: String
    private let write: @Sendable (String) -> Void

    public init(label: String, write: @escaping @Sendable (String) -> Void = JSONLogHandler.standardError) {
        self.label = label
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 })
        let fields = merged.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        let line = "\(Self.timestamp()) \(event.level) \(label) :\(fields) [\(event.source)] \(event.message)"
        write(TextCharacters.escaped(line) + "\n")
    }

    /// Local time with its offset, as `StreamLogHandler` writes it.
    private static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        var buffer = [Int8](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
