import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why the server could not be reached, kept apart because an app does different things for
/// each: offline, wait for the network; timed out or refused, try again; a secure connection
/// that failed (a wrong certificate, a pinning refusal), not again.
public struct NetworkFailure: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The device has no network (`notConnectedToInternet`, `dataNotAllowed`, airplane mode).
        case offline
        /// No answer in time.
        case timedOut
        /// The host could not be found or refused the connection, or the connection was lost.
        case cannotConnect
        /// TLS failed: the certificate was not trusted, or a pinning delegate refused it.
        case secureConnectionFailed
        /// Anything else (a URL the system cannot load, an unknown failure).
        case other
    }

    public let kind: Kind
    /// The `URLError.Code` raw value, when the failure was a `URLError`.
    public let urlErrorCode: Int?
    /// The system's own words, for logs.
    public let detail: String

    public init(kind: Kind, urlErrorCode: Int? = nil, detail: String) {
        self.kind = kind
        self.urlErrorCode = urlErrorCode
        self.detail = detail
    }

    /// The failure a transport threw, classified by its `URLError` code.
    public init(_ error: any Error) {
        guard let error = error as? URLError else {
            self.init(kind: .other, detail: error.localizedDescription)
            return
        }
        let kind: Kind =
            switch error.code {
            case .notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff, .callIsActive: .offline
            case .timedOut: .timedOut
            case .cannotFindHost, .cannotConnectToHost, .networkConnectionLost, .dnsLookupFailed, .resourceUnavailable: .cannotConnect
            case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted, .serverCertificateHasUnknownRoot,
                .serverCertificateNotYetValid, .clientCertificateRejected, .clientCertificateRequired, .appTransportSecurityRequiresSecureConnection:
                .secureConnectionFailed
            // swift-corelibs-foundation (Linux) reports curl's TLS failures as `.unknown` with
            // OpenSSL's words ("SSL routines::wrong version number", a certificate problem).
            case .unknown where Self.isTLSReason(error.localizedDescription): .secureConnectionFailed
            default: .other
            }
        self.init(kind: kind, urlErrorCode: error.code.rawValue, detail: error.localizedDescription)
    }

    private static func isTLSReason(_ text: String) -> Bool {
        ["SSL", "TLS", "certificate"].contains { text.localizedCaseInsensitiveContains($0) }
    }

    /// Whether trying again may succeed: not after a secure connection failed.
    public var isRetryable: Bool { kind != .secureConnectionFailed }

    /// What to tell the person.
    public var userMessage: String {
        switch kind {
        case .offline: "You are offline. Check your connection and try again."
        case .timedOut: "The server took too long to answer. Try again."
        case .cannotConnect: "Cannot reach the server. Try again in a moment."
        case .secureConnectionFailed: "A secure connection to the server could not be made."
        case .other: "Cannot reach the server: \(detail)"
        }
    }

    public var description: String { detail }
}
