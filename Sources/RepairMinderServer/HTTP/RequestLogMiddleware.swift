import HTTPTypes
import Hummingbird
import Logging

/// Each request's id and its access-log line.
///
/// - `X-Request-Id` on every answer: the one a trusted proxy (`--trusted-proxies`) sent, when
///   it is a plain token (1–128 of `A–Z a–z 0–9 . _ : -`), so a proxy's and our logs line up;
///   otherwise 16 random bytes in hex. A client's own header is not taken (it could forge
///   another request's id). Every line the request logs carries it as `request_id`.
/// - One `info` line per request (`--access-log`): method, route pattern, status, duration
///   and id. Never the raw path (it can hold an id), a query value, a body, a token or a code.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let trustedProxies: [IPAddressRange]
    let accessLog: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let id = requestID(request, peer: context.clientIP)
        var context = context
        context.logger[metadataKey: "request_id"] = .string(id)
        let started = ContinuousClock.now
        var response = try await next(request, context)
        response.headers[.xRequestId] = id
        if accessLog {
            let elapsed = ContinuousClock.now - started
            // Tenths of a millisecond, formatted without Foundation (this runs for every request).
            let tenths = elapsed.components.seconds * 10_000 + elapsed.components.attoseconds / 100_000_000_000_000
            context.logger.info(
                "request",
                metadata: [
                    "method": .string(request.method.rawValue),
                    // Hummingbird's pattern of the matched route ("/api/sessions/{id}"), never the path itself.
                    "route": .string(context.endpointPath ?? "NotFound"),
                    "status": .stringConvertible(response.status.code),
                    // A number (a JSON number with --log-format json), to a tenth of a millisecond.
                    "duration_ms": .stringConvertible(Double(tenths) / 10),
                ])
        }
        return response
    }

    private func requestID(_ request: Request, peer: String?) -> String {
        if let peer, trustedProxies.contains(where: { $0.contains(peer) }), let given = request.headers[.xRequestId],
            Self.isPlainToken(given)
        {
            return given
        }
        return Self.newID()
    }

    /// 128 random bits as 32 hex digits: two draws from the system generator, not sixteen
    /// (each is a system call).
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return [generator.next() as UInt64, generator.next() as UInt64].map { half in
            let digits = String(half, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }

    static func isPlainToken(_ text: String) -> Bool {
        (1...128).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "-"):
                    true
                default: false
                }
            }
    }
}

extension HTTPField.Name {
    static let xRequestId = HTTPField.Name("X-Request-Id")!
}
