import Hummingbird
import NIOCore

/// The per-request context: Hummingbird's core storage plus who is calling.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The client's IP address: the socket's peer, or the client behind a trusted proxy
    /// (`ClientAddressMiddleware`); nil in router tests.
    public var clientIP: String?
    /// The signed-in staff member, set by `RouteMounter` (or `QuarantineMiddleware`) for staff routes.
    var staff: AuthenticatedStaff?
    /// The signed-in customer, set by `RouteMounter` for customer routes.
    var customer: AuthenticatedCustomer?
    /// The signed-in REKI user, set by `RouteMounter` for REKI's bearer routes.
    var rekiUser: AuthenticatedREKIUser?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientIP = source.channel.remoteAddress?.ipAddress
        staff = nil
        customer = nil
        rekiUser = nil
    }

    /// Bodies are read explicitly up to `--max-body-size` (`RequestDecoder`, the reset page);
    /// this only bounds Hummingbird's own reads, by the largest that setting takes.
    public var maxUploadSize: Int { ServerSettings.maxBodySizeCeiling }
}
