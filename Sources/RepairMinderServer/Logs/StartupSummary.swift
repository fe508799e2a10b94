import Foundation

extension ServerSettings {
    /// The start-up line: what this process is and where it goes, without a secret (the SMTP
    /// server by host and port, the database without its password).
    public func startupSummary(version: String = repairMinderVersion) -> String {
        let database: String
        switch try? databaseLocation() {
        case .sqlite(let path): database = "SQLite \(path)"
        case .postgres(let location): database = "PostgreSQL \(location)"
        case nil: database = "unreadable --database-url"
        }
        let mail: String
        switch effectiveMailTransport {
        case .outbox: mail = "outbox \(URL(fileURLWithPath: dataDirectory).appendingPathComponent("outbox.jsonl").path)"
        case .smtp: mail = "SMTP " + ((try? SMTPServerAddress(url: smtpURL ?? "").description) ?? "(unreadable --smtp-url)")
        }
        return [
            "Repair Minder \(version) starting on http://\(host):\(port)", "public URL \(serverURL)", "environment \(environment.rawValue)",
            "database \(database)", "mail \(mail)", "REKI \(rekiEnabled ? "on" : "off")", "metrics \(metricsAddress ?? "off")",
            "trusted proxies \(trustedProxies.isEmpty ? "none" : trustedProxies.joined(separator: " "))",
            "access log \(accessLog ? "on" : "off")",
        ].joined(separator: ", ")
    }
}
