import Foundation
import Synchronization

/// A TCP port on 127.0.0.1 that nothing listens on now, from a range the kernel never hands
/// out by itself (below Linux's ephemeral range, 32768–60999), each port at most once per
/// test process.
///
/// Why not the kernel's pick for a socket bound to port 0: the port is free again once that
/// socket closes, and the kernel may give it to the next socket bound to port 0 (another test's
/// in-process server) or to an outgoing connection (a database client) before the server this
/// port is for has bound it. CI met exactly that: a `serve` exited with "address in use" while
/// another test's server answered on its port.
public func freeLoopbackPort() throws -> Int {
    for _ in 0..<PortRange.size {
        let port = PortRange.next()
        if isFree(port) { return port }
    }
    throw POSIXError(.EADDRINUSE)
}

private enum PortRange {
    static let lowest = 20_000
    static let size = 12_000
    /// Starts at a random point so that two test processes side by side rarely meet.
    static let offset = Mutex(Int.random(in: 0..<size))

    static func next() -> Int {
        offset.withLock { offset in
            defer { offset = (offset + 1) % size }
            return lowest + offset
        }
    }
}

private func isFree(_ port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
}
