import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// One short, plain reason for a failure an operator meets at start-up (a file the server
/// cannot create, a server it cannot reach), instead of the library's own text
/// (`NSCocoaErrorDomain Code=513 ...`, `SingleConnectionFailure(... errno: 111)`).
public enum PlainReason {
    public static func of(_ error: any Error) -> String {
        if let error = error as? SettingsError { return error.description }
        // Foundation's file errors carry the system's own reason underneath.
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error {
            let posix = underlying as NSError
            if posix.domain == NSPOSIXErrorDomain { return describe(errno: CInt(posix.code)) }
        }
        if let error = error as? CocoaError {
            switch error.code {
            case .fileNoSuchFile, .fileReadNoSuchFile: return describe(errno: ENOENT)
            case .fileWriteNoPermission, .fileReadNoPermission: return describe(errno: EACCES)
            case .fileWriteVolumeReadOnly: return describe(errno: EROFS)
            case .fileWriteFileExists: return describe(errno: EEXIST)
            default: break
            }
        }
        if let error = error as? NIOConnectionError {
            if let first = error.connectionErrors.first { return of(first.error) }
            if error.dnsAAAAError != nil || error.dnsAError != nil { return "the host name does not resolve" }
        }
        if let error = error as? IOError { return describe(errno: error.errnoCode) }
        if let error = error as? ChannelError, case .connectTimeout = error { return "no answer (connection timed out)" }
        if let reason = tlsReason(error) { return reason }
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain { return describe(errno: CInt(nsError.code)) }
        return String(describing: error)
    }

    /// A TLS handshake that failed, in the terms of what to fix.
    private static func tlsReason(_ error: any Error) -> String? {
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
            return "the server's TLS certificate is not for that host name or address"
        }
        guard let error = error as? NIOSSLError, case .handshakeFailed(let reason) = error else { return nil }
        if "\(reason)".contains("CERTIFICATE_VERIFY_FAILED") {
            return "the server's TLS certificate is not trusted (for a mail server with a private CA, give its certificate with --smtp-ca-file)"
        }
        return "the TLS handshake failed (\(reason))"
    }

    static func describe(errno code: CInt) -> String {
        switch code {
        case ECONNREFUSED: "connection refused (nothing listens there)"
        case ENOENT: "no such file or directory"
        case EACCES, EPERM: "permission denied"
        case EROFS: "the file system is read-only"
        case EEXIST: "a file of that name is in the way"
        case ENOTDIR: "a part of the path is a file, not a directory"
        case ETIMEDOUT: "no answer (timed out)"
        case EHOSTUNREACH, ENETUNREACH: "the host cannot be reached"
        default: String(cString: strerror(code))
        }
    }
}
