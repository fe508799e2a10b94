import Foundation
import NIOSSL
import PostgresNIO

/// Which database `--database-url` names: a SQLite file, or a PostgreSQL server.
public enum DatabaseLocation: Sendable {
    case sqlite(path: String)
    case postgres(PostgresLocation)

    /// Parses `sqlite:///path/file.sqlite`, a plain file path, or
    /// `postgres://user:password@host:5432/database?sslmode=require` (also `postgresql://`).
    /// `sslmode` takes libpq's values: `disable`, `allow`/`prefer` (the default), `require`,
    /// `verify-ca` and `verify-full`.
    public init(url: String) throws {
        if url.hasPrefix("sqlite://") {
            self = .sqlite(path: String(url.dropFirst("sqlite://".count)))
        } else if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            self = .postgres(try PostgresLocation(url: url))
        } else if url.contains("://") {
            throw SettingsError(
                "--database-url must be postgres://user:password@host:5432/database, sqlite:///path/to/file.sqlite or a file path")
        } else {
            self = .sqlite(path: url)
        }
    }
}

/// A PostgreSQL server and database, from a `postgres://` URL.
public struct PostgresLocation: Sendable, CustomStringConvertible {
    public let host: String
    public let port: Int
    public let username: String
    let password: String?
    public let database: String
    public let sslMode: String

    init(url: String) throws {
        func invalid(_ why: String) -> SettingsError {
            SettingsError("--database-url: \(why) (expected postgres://user:password@host:5432/database?sslmode=prefer)")
        }
        guard let components = URLComponents(string: url) else { throw invalid("not a URL") }
        guard let host = components.host, !host.isEmpty else { throw invalid("no host") }
        guard let user = components.user, !user.isEmpty else { throw invalid("no user name") }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else { throw invalid("no database name after the host") }
        self.host = host
        port = components.port ?? 5432
        username = user.removingPercentEncoding ?? user
        password = components.password.map { $0.removingPercentEncoding ?? $0 }
        self.database = database.removingPercentEncoding ?? database
        sslMode = components.queryItems?.last(where: { $0.name == "sslmode" })?.value ?? "prefer"
        _ = try tls()
    }

    /// `host:port/database`: never the password.
    public var description: String { "\(host):\(port)/\(database)" }

    /// libpq's `sslmode`: whether TLS is off, tried, or required, and how the certificate is
    /// checked: not at all (`allow`, `prefer`, `require`), the chain (`verify-ca`), the chain
    /// and the host name (`verify-full`).
    private func tls() throws -> (required: Bool, configuration: TLSConfiguration)? {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch sslMode {
        case "disable":
            return nil
        case "allow", "prefer":
            tls.certificateVerification = .none
            return (false, tls)
        case "require":
            tls.certificateVerification = .none
            return (true, tls)
        case "verify-ca":
            tls.certificateVerification = .noHostnameVerification
            return (true, tls)
        case "verify-full":
            return (true, tls)
        default:
            throw SettingsError(
                "--database-url: sslmode must be one of disable, allow, prefer, require, verify-ca, verify-full; got \"\(sslMode)\"")
        }
    }

    /// The pool's configuration: at most `poolSize` connections.
    func clientConfiguration(poolSize: Int) throws -> PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS =
            switch try tls() {
            case nil: .disable
            case let (required, configuration)?: required ? .require(configuration) : .prefer(configuration)
            }
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls)
        configuration.options.maximumConnections = poolSize
        configuration.options.minimumConnections = 0
        return configuration
    }

    /// The same server for a single connection.
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS =
            switch try tls() {
            case nil: .disable
            case let (required, configuration)?:
                required ? .require(try NIOSSLContext(configuration: configuration)) : .prefer(try NIOSSLContext(configuration: configuration))
            }
        return PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls)
    }

    /// Why a connection failed, in PostgreSQL's words where the server gave some (PSQLError
    /// keeps its details out of `description` so they do not leak into logs by accident;
    /// they hold no secret here: the password is never part of them).
    static func reason(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return PlainReason.of(error) }
        if error.code == .sslUnsupported { return "the server does not offer TLS; use sslmode=disable or sslmode=prefer" }
        if let message = error.serverInfo?[.message] { return message }
        if let underlying = error.underlying { return PlainReason.of(underlying) }
        return String(describing: error.code)
    }
}
