import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One HTTP/1.1 request over a plain socket whose source address the test chooses (another
/// loopback address, `127.0.0.2`): for checks that depend on the client's IP address, which
/// URLSession and HummingbirdTesting cannot set.
public enum LoopbackHTTP {
    public struct Reply: Sendable {
        public let status: Int
        public let body: String
    }

    /// POSTs `json` to `http://127.0.0.1:<port><path>` from `source` and reads the whole answer.
    public static func post(port: Int, path: String, json: String, from source: String, userAgent: String) throws -> Reply {
        let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure("socket: \(errno)") }
        defer { close(socket) }
        var local = try address(source, port: 0)
        var remote = try address("127.0.0.1", port: port)
        try withSockaddr(&local) { guard bind(socket, $0, $1) == 0 else { throw Failure("bind \(source): \(errno)") } }
        try withSockaddr(&remote) { guard connect(socket, $0, $1) == 0 else { throw Failure("connect: \(errno)") } }
        let request =
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUser-Agent: \(userAgent)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(json.utf8.count)\r\nConnection: close\r\n\r\n\(json)"
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw Failure("send: \(errno)") }
            sent += n
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            received += buffer[..<n]
        }
        let text = String(decoding: received, as: UTF8.self)
        guard let statusLine = text.split(separator: "\r\n").first, let status = statusLine.split(separator: " ").dropFirst().first.flatMap({ Int($0) }),
            let headerEnd = text.range(of: "\r\n\r\n")
        else { throw Failure("not an HTTP answer: \(text.prefix(200))") }
        return Reply(status: status, body: String(text[headerEnd.upperBound...]))
    }

    private static func address(_ ip: String, port: Int) throws -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, ip, &address.sin_addr) == 1 else { throw Failure("not an IPv4 address: \(ip)") }
        return address
    }

    private static func withSockaddr(_ address: inout sockaddr_in, _ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Void) throws {
        try withUnsafePointer(to: &address) {
            try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
