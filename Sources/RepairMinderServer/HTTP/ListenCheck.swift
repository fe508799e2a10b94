import Foundation
import NIOCore
import NIOPosix

/// Start-up's first check: each address the server will listen on can be listened on. It runs
/// before the database is opened or migrated, so a port in use or a host that is not this
/// machine's is one clear line and exit 1, not a failure after the background services started.
public enum ListenCheck {
    /// Checks the API's address and, when metrics are on, the metrics listener's.
    public static func ensureAvailable(for settings: ServerSettings) async throws {
        try await ensureAvailable(host: settings.host, port: settings.port)
        if let metrics = settings.metricsAddress.flatMap(ListenAddress.init) {
            try await ensureAvailable(host: metrics.host, port: metrics.port)
        }
    }

    /// Binds `host:port` (as the server will, with `SO_REUSEADDR`) and closes it again.
    public static func ensureAvailable(host: String, port: Int) async throws {
        let place = "\(host):\(port)"
        let address: SocketAddress
        do {
            address = try SocketAddress.makeAddressResolvingHost(host, port: port)
        } catch {
            throw SettingsError("cannot listen on \(place): \"\(host)\" is not a host name or address this machine can resolve")
        }
        do {
            let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .bind(to: address).get()
            try await channel.close()
        } catch let error as IOError {
            throw SettingsError("cannot listen on \(place): \(reason(errno: error.errnoCode))")
        } catch {
            throw SettingsError("cannot listen on \(place): \(error)")
        }
    }

    private static func reason(errno: CInt) -> String {
        switch errno {
        case EADDRINUSE: "the address is already in use (is another server running there?)"
        case EADDRNOTAVAIL: "that address is not one of this machine's"
        case EACCES: "permission denied (ports below 1024 need privileges)"
        default: String(cString: strerror(errno))
        }
    }
}
