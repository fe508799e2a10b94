import Foundation
import RepairMinderServer

/// A real SMTP server (`.ci/smtp-catcher.py`, aiosmtpd) on loopback, recording what it accepts.
public final class SMTPCatcher: @unchecked Sendable {
    public static let isAvailable: Bool = {
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        check.arguments = ["python3", "-c", "import aiosmtpd"]
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil else { return false }
        check.waitUntilExit()
        return check.terminationStatus == 0
    }()
    public static let howToEnable = "needs Python's aiosmtpd: python3 -m pip install aiosmtpd"

    public struct Received: Decodable {
        public let from: String
        public let to: [String]
        public let data: String
        public let auth: String?
        public let tls: Bool
        public var text: String { String(decoding: Data(base64Encoded: data) ?? Data(), as: UTF8.self) }
        /// The six-digit code in the message (its plain-text part is quoted-printable, and
        /// digits travel as themselves).
        public var code: String? {
            text.range(of: #"code is \d{6}"#, options: .regularExpression).map { String(text[$0].suffix(6)) }
        }
    }

    let process = Process()
    private let input = Pipe()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("smtp-\(UUID().uuidString)").path
    public private(set) var port = 0
    public private(set) var certificate: String?

    /// Starts the catcher; `options` are its flags ("DIR" stands for a directory of its own).
    public init(_ options: [String] = []) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".ci/smtp-catcher.py").path
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, "--record", directory + "/received.jsonl"] + options
            .map { $0 == "DIR" ? directory : $0 }
        let out = Pipe()
        process.standardOutput = out
        // The catcher runs until this pipe closes: when `stop` closes it, or when the tests end
        // however they end (python3 may be a wrapper whose child a signal would miss).
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        let wantsCertificate = options.contains("--starttls")
        var text = ""
        while port == 0 || (wantsCertificate && certificate == nil) {
            let chunk = out.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw SettingsError("the SMTP catcher did not start") }
            text += String(decoding: chunk, as: UTF8.self)
            for line in text.split(separator: "\n") {
                if line.hasPrefix("READY ") { port = Int(line.dropFirst(6)) ?? 0 }
                if line.hasPrefix("CERT ") { certificate = String(line.dropFirst(5)) }
            }
        }
    }

    public func received() throws -> [Received] {
        guard let text = try? String(contentsOfFile: directory + "/received.jsonl", encoding: .utf8) else { return [] }
        // Only whole lines: the catcher may be writing the last one while a test polls.
        let whole = text.hasSuffix("\n") ? Substring(text) : text[..<(text.lastIndex(of: "\n") ?? text.startIndex)]
        return try whole.split(separator: "\n").map { try JSONDecoder().decode(Received.self, from: Data($0.utf8)) }
    }

    /// Closes the catcher's input, which ends it; one that has not ended 10 s later is killed,
    /// so a test never waits on it for ever.
    public func stop() {
        try? input.fileHandleForWriting.close()
        try? waitUntilBlocking("the SMTP catcher ended", timeout: .seconds(10), interval: .milliseconds(50)) { !process.isRunning }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(atPath: directory)
    }
}
