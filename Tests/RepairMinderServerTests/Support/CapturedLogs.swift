import Foundation
import Logging
import TestSupport

/// Every line a logger writes, message and metadata, kept for assertions.
final class CapturedLogs: Sendable {
    let lines = Locked([String]())

    /// A logger at `trace` (everything) writing here.
    var logger: Logger {
        Logger(label: "captured") { label in Handler(label: label, logs: self) }
    }

    private struct Handler: LogHandler {
        let label: String
        let logs: CapturedLogs
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            let line = "\(event.level) \(event.message) \(all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))"
            logs.lines.update { $0.append(line) }
        }
    }
}
