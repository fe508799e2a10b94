import Hummingbird
import Logging
import NIOCore

/// Prometheus' scrape endpoint, `GET /metrics`, on a listener of its own that the operator
/// names (`--metrics-address`), never on the API port: the counts move differently for an
/// address with an account and one without, so they must stay on a private network.
enum MetricsListener {
    static let path = "/metrics"

    /// The listener's application, run as one of the API application's services. `listening`
    /// is told the port it bound (the one asked for, or the system's pick for port 0).
    static func application(
        metrics: ServerMetrics, mail: MailQueue, address: ListenAddress, logger: Logger,
        listening: @escaping @Sendable (Int) async -> Void
    ) -> some ApplicationProtocol {
        let router = Router()
        router.get(RouterPath(path)) { _, context -> Response in
            do {
                metrics.mailQueueDepth(try await mail.depth())
            } catch {
                // The other series are still worth a scrape; the gauge keeps its last value.
                context.logger.warning("Metrics: cannot count the mail queue: \(String(reflecting: type(of: error)))")
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
        }
        return Application(
            router: router,
            configuration: .init(address: .hostname(address.host, port: address.port), serverName: "RepairMinder metrics"),
            onServerRunning: { channel in await listening(channel.localAddress?.port ?? address.port) },
            logger: logger)
    }
}

/// A `HOST:PORT` to listen on (`[v6]:PORT` for an IPv6 address).
struct ListenAddress: Sendable, Equatable {
    let host: String
    let port: Int

    /// Parses `text`; nil when it is not `HOST:PORT` with a port from 0 to 65535.
    init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port)
        else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" }) else { return nil }
        // An IPv6 address needs its brackets, or its last group would read as the port.
        if host.contains(":"), !text.hasPrefix("[") { return nil }
        self.host = host
        self.port = port
    }
}
