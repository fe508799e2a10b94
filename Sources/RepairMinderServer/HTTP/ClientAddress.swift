import HTTPTypes
import Hummingbird

/// Who the client is, by IP address (docs/API.md §7): the socket's peer, unless that peer is
/// one of `--trusted-proxies`; then `X-Forwarded-For` is read from the right, skipping trusted
/// proxies, and the first address that is not one is the client. A header from anyone else is
/// ignored, so a client cannot choose its own address.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let trustedProxies: [IPAddressRange]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !trustedProxies.isEmpty, let peer = context.clientIP, isTrusted(peer) else {
            return try await next(request, context)
        }
        var context = context
        context.clientIP = client(behind: peer, forwardedFor: request.headers[values: .xForwardedFor])
        return try await next(request, context)
    }

    /// The rightmost address of the chain that is not a trusted proxy; the peer if every hop is.
    func client(behind peer: String, forwardedFor headers: [String]) -> String {
        let chain = headers.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in chain.reversed() {
            guard IPAddressRange.bytes(of: hop) != nil else { return peer }  // garbage: trust nothing further left
            if !isTrusted(hop) { return hop }
        }
        return chain.first ?? peer
    }

    private func isTrusted(_ address: String) -> Bool { trustedProxies.contains { $0.contains(address) } }
}

extension HTTPField.Name {
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}

/// The keys limits count a client address under (docs/API.md §7).
enum ClientAddress {
    /// The network `address` belongs to, for budgets counted per network: IPv4 /24, IPv6 /64
    /// (`IPAddressRange.bytes` counts an IPv4-mapped IPv6 address as IPv4); "unknown" without one.
    static func networkKey(_ address: String?) -> String {
        guard let address, let bytes = IPAddressRange.bytes(of: address) else { return "unknown" }
        guard bytes.count == 4 else { return limitKey(address) }
        return bytes.prefix(3).map(String.init).joined(separator: ".") + ".0/24"
    }

    /// The key a per-IP limit counts `address` under: the address itself for IPv4, its /64 for
    /// IPv6 (one customer's allocation), so rotating through a prefix gains nothing.
    static func limitKey(_ address: String) -> String {
        guard let bytes = IPAddressRange.bytes(of: address), bytes.count == 16 else { return address }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }
}
