import Foundation
import RepairMinderModels

/// Which credential an endpoint needs.
public enum EndpointAuth: Sendable, Equatable {
    case none
    case staff
    case customer
}

/// HTTP methods the API uses.
public enum HTTPMethod: String, Sendable {
    case get = "GET"
    case post = "POST"
    case put = "PUT"
    case patch = "PATCH"
    case delete = "DELETE"
}

/// Every endpoint of seed 004's catalogue (API.md §8), with its method, path and credential.
/// Bodies are passed as already-encoded JSON where the endpoint takes one.
public enum APIEndpoint: Sendable {
    // Staff auth (§2)
    case login(LoginRequest)
    case requestTwoFactorCode(TwoFactorCodeRequest)
    case verifyTwoFactorCode(TwoFactorVerifyRequest)
    case requestMagicLink(MagicLinkRequest)
    case verifyMagicLink(MagicLinkVerifyRequest)
    case refresh(RefreshRequest)
    case me
    case logout
    case totpSetup
    case totpVerifySetup(TOTPCodeRequest)
    case totpDisable(TOTPCodeRequest)
    case totpStatus
    // Customer auth (§3)
    case customerRequestMagicLink(CustomerMagicLinkRequest)
    case customerVerifyCode(CustomerVerifyCodeRequest)
    case customerMe
    case customerLogout
    // Accounts (§4)
    case currentUser
    case company(id: String)
    // Dashboard
    case dashboardStats, dashboardEnquiryStats, dashboardLifecycle, dashboardCategoryBreakdown
    case dashboardActivityLog, dashboardBookingHeatmap, dashboardBuybackStats, dashboardBookingsByTime
    // Devices
    case devices(page: Int? = nil, limit: Int? = nil)
    case myQueue, myActiveWork
    case orderDevices(orderId: String)
    case addOrderDevice(orderId: String, body: Data)
    case orderDevice(orderId: String, deviceId: String)
    case updateOrderDevice(orderId: String, deviceId: String, body: Data)
    case deleteOrderDevice(orderId: String, deviceId: String)
    case updateDeviceStatus(orderId: String, deviceId: String, body: Data)
    case deviceActions(orderId: String, deviceId: String)
    case executeDeviceAction(orderId: String, deviceId: String, body: Data)
    // Orders
    case orders(page: Int? = nil, limit: Int? = nil)
    case createOrder(body: Data)
    case order(id: String)
    case updateOrder(id: String, body: Data)
    case orderItems(orderId: String)
    case addOrderItem(orderId: String, body: Data)
    case updateOrderItem(orderId: String, itemId: String, body: Data)
    case deleteOrderItem(orderId: String, itemId: String)
    case orderPayments(orderId: String)
    case addOrderPayment(orderId: String, body: Data)
    case deleteOrderPayment(orderId: String, paymentId: String)
    case orderSignatures(orderId: String)
    case captureSignature(orderId: String, body: Data)
    case sendQuote(orderId: String), authorizeOrder(orderId: String), despatchOrder(orderId: String), collectOrder(orderId: String)
    // Clients
    case clients(page: Int? = nil, limit: Int? = nil)
    case createClient(body: Data)
    case client(id: String)
    case updateClient(id: String, body: Data)
    case deleteClient(id: String)
    case searchClients(query: String)
    case exportClients
    case importClients(body: Data)
    // Tickets / enquiries
    case tickets(page: Int? = nil, limit: Int? = nil)
    case createTicket(body: Data)
    case ticket(id: String)
    case updateTicket(id: String, body: Data)
    case replyToTicket(id: String, body: Data)
    case addTicketNote(id: String, body: Data)
    case resolveTicket(id: String)
    case reassignTicket(id: String, body: Data)
    case createEnquiry(body: Data)
    // Push (§5)
    case registerDeviceToken(DeviceTokenRegistration)
    case unregisterDeviceToken(DeviceTokenRemoval)
    case deviceTokens
    case pushPreferences
    case updatePushPreferences(PushPreferences)
    case registerCustomerDeviceToken(DeviceTokenRegistration)
    case unregisterCustomerDeviceToken(DeviceTokenRemoval)
    // Customer portal
    case customerOrders
    case customerOrder(orderId: String)
    case approveCustomerOrder(orderId: String, body: Data)
    case replyToCustomerOrder(orderId: String, body: Data)
    case customerInvoice(orderId: String)
    case customerDeviceImage(deviceId: String, imageId: String)
    // Public (§6)
    case config
    case health
}

extension APIEndpoint {
    /// The path, with identifiers percent-escaped.
    public var path: String {
        func e(_ id: String) -> String { id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? id }
        switch self {
        case .login: return "/api/auth/login"
        case .requestTwoFactorCode: return "/api/auth/2fa/request"
        case .verifyTwoFactorCode: return "/api/auth/2fa/verify"
        case .requestMagicLink: return "/api/auth/magic-link/request"
        case .verifyMagicLink: return "/api/auth/magic-link/verify-code"
        case .refresh: return "/api/auth/refresh"
        case .me: return "/api/auth/me"
        case .logout: return "/api/auth/logout"
        case .totpSetup: return "/api/auth/totp/setup"
        case .totpVerifySetup: return "/api/auth/totp/verify-setup"
        case .totpDisable: return "/api/auth/totp/disable"
        case .totpStatus: return "/api/auth/totp/status"
        case .customerRequestMagicLink: return "/api/customer/auth/request-magic-link"
        case .customerVerifyCode: return "/api/customer/auth/verify-code"
        case .customerMe: return "/api/customer/auth/me"
        case .customerLogout: return "/api/customer/auth/logout"
        case .currentUser: return "/api/users/me"
        case .company(let id): return "/api/companies/\(e(id))"
        case .dashboardStats: return "/api/dashboard/stats"
        case .dashboardEnquiryStats: return "/api/dashboard/enquiry-stats"
        case .dashboardLifecycle: return "/api/dashboard/lifecycle"
        case .dashboardCategoryBreakdown: return "/api/dashboard/category-breakdown"
        case .dashboardActivityLog: return "/api/dashboard/activity-log"
        case .dashboardBookingHeatmap: return "/api/dashboard/booking-heatmap"
        case .dashboardBuybackStats: return "/api/dashboard/buyback-stats"
        case .dashboardBookingsByTime: return "/api/dashboard/bookings-by-time"
        case .devices: return "/api/devices"
        case .myQueue: return "/api/devices/my-queue"
        case .myActiveWork: return "/api/devices/my-active-work"
        case .orderDevices(let o), .addOrderDevice(let o, _): return "/api/orders/\(e(o))/devices"
        case .orderDevice(let o, let d), .updateOrderDevice(let o, let d, _), .deleteOrderDevice(let o, let d):
            return "/api/orders/\(e(o))/devices/\(e(d))"
        case .updateDeviceStatus(let o, let d, _): return "/api/orders/\(e(o))/devices/\(e(d))/status"
        case .deviceActions(let o, let d): return "/api/orders/\(e(o))/devices/\(e(d))/actions"
        case .executeDeviceAction(let o, let d, _): return "/api/orders/\(e(o))/devices/\(e(d))/action"
        case .orders, .createOrder: return "/api/orders"
        case .order(let id), .updateOrder(let id, _): return "/api/orders/\(e(id))"
        case .orderItems(let o), .addOrderItem(let o, _): return "/api/orders/\(e(o))/items"
        case .updateOrderItem(let o, let i, _), .deleteOrderItem(let o, let i): return "/api/orders/\(e(o))/items/\(e(i))"
        case .orderPayments(let o), .addOrderPayment(let o, _): return "/api/orders/\(e(o))/payments"
        case .deleteOrderPayment(let o, let p): return "/api/orders/\(e(o))/payments/\(e(p))"
        case .orderSignatures(let o), .captureSignature(let o, _): return "/api/orders/\(e(o))/signatures"
        case .sendQuote(let o): return "/api/orders/\(e(o))/send-quote"
        case .authorizeOrder(let o): return "/api/orders/\(e(o))/authorize"
        case .despatchOrder(let o): return "/api/orders/\(e(o))/despatch"
        case .collectOrder(let o): return "/api/orders/\(e(o))/collect"
        case .clients, .createClient: return "/api/clients"
        case .client(let id), .updateClient(let id, _), .deleteClient(let id): return "/api/clients/\(e(id))"
        case .searchClients: return "/api/clients/search"
        case .exportClients: return "/api/clients/export"
        case .importClients: return "/api/clients/import"
        case .tickets, .createTicket: return "/api/tickets"
        case .ticket(let id), .updateTicket(let id, _): return "/api/tickets/\(e(id))"
        case .replyToTicket(let id, _): return "/api/tickets/\(e(id))/reply"
        case .addTicketNote(let id, _): return "/api/tickets/\(e(id))/note"
        case .resolveTicket(let id): return "/api/tickets/\(e(id))/resolve"
        case .reassignTicket(let id, _): return "/api/tickets/\(e(id))/reassign"
        case .createEnquiry: return "/api/tickets/enquiry"
        case .registerDeviceToken, .unregisterDeviceToken: return "/api/user/device-token"
        case .deviceTokens: return "/api/user/device-tokens"
        case .pushPreferences, .updatePushPreferences: return "/api/user/push-preferences"
        case .registerCustomerDeviceToken, .unregisterCustomerDeviceToken: return "/api/customer/device-token"
        case .customerOrders: return "/api/customer/orders"
        case .customerOrder(let o): return "/api/customer/orders/\(e(o))"
        case .approveCustomerOrder(let o, _): return "/api/customer/orders/\(e(o))/approve"
        case .replyToCustomerOrder(let o, _): return "/api/customer/orders/\(e(o))/reply"
        case .customerInvoice(let o): return "/api/customer/orders/\(e(o))/invoice"
        case .customerDeviceImage(let d, let i): return "/api/customer/devices/\(e(d))/images/\(e(i))/file"
        case .config: return "/api/config"
        case .health: return "/api/health"
        }
    }

    public var method: HTTPMethod {
        switch self {
        case .me, .totpStatus, .customerMe, .currentUser, .company, .dashboardStats, .dashboardEnquiryStats,
            .dashboardLifecycle, .dashboardCategoryBreakdown, .dashboardActivityLog, .dashboardBookingHeatmap,
            .dashboardBuybackStats, .dashboardBookingsByTime, .devices, .myQueue, .myActiveWork, .orderDevices,
            .orderDevice, .deviceActions, .orders, .order, .orderItems, .orderPayments, .orderSignatures, .clients,
            .client, .searchClients, .exportClients, .tickets, .ticket, .deviceTokens, .pushPreferences,
            .customerOrders, .customerOrder, .customerInvoice, .customerDeviceImage, .config, .health:
            return .get
        case .updateOrderDevice, .updateDeviceStatus, .updateOrder, .updateOrderItem, .updateClient, .updateTicket:
            return .patch
        case .deleteOrderDevice, .deleteOrderItem, .deleteOrderPayment, .deleteClient, .unregisterDeviceToken,
            .unregisterCustomerDeviceToken:
            return .delete
        case .updatePushPreferences: return .put
        default: return .post
        }
    }

    /// The credential the endpoint needs.
    public var auth: EndpointAuth {
        switch self {
        case .login, .requestTwoFactorCode, .verifyTwoFactorCode, .requestMagicLink, .verifyMagicLink, .refresh,
            .customerRequestMagicLink, .customerVerifyCode, .createEnquiry, .config, .health:
            return .none
        case .customerMe, .customerLogout, .registerCustomerDeviceToken, .unregisterCustomerDeviceToken, .customerOrders,
            .customerOrder, .approveCustomerOrder, .replyToCustomerOrder, .customerInvoice, .customerDeviceImage:
            return .customer
        default: return .staff
        }
    }

    /// Query items (pagination, search).
    public var query: [URLQueryItem] {
        switch self {
        case .devices(let page, let limit), .orders(let page, let limit), .clients(let page, let limit),
            .tickets(let page, let limit):
            return [page.map { URLQueryItem(name: "page", value: String($0)) }, limit.map { URLQueryItem(name: "limit", value: String($0)) }]
                .compactMap { $0 }
        case .searchClients(let query): return [URLQueryItem(name: "q", value: query)]
        default: return []
        }
    }

    /// The JSON body, if the endpoint takes one.
    public func body() throws -> Data? {
        let encoder = JSONEncoder()
        switch self {
        case .login(let b): return try encoder.encode(b)
        case .requestTwoFactorCode(let b): return try encoder.encode(b)
        case .verifyTwoFactorCode(let b): return try encoder.encode(b)
        case .requestMagicLink(let b): return try encoder.encode(b)
        case .verifyMagicLink(let b): return try encoder.encode(b)
        case .refresh(let b): return try encoder.encode(b)
        case .totpVerifySetup(let b), .totpDisable(let b): return try encoder.encode(b)
        case .customerRequestMagicLink(let b): return try encoder.encode(b)
        case .customerVerifyCode(let b): return try encoder.encode(b)
        case .registerDeviceToken(let b), .registerCustomerDeviceToken(let b): return try encoder.encode(b)
        case .unregisterDeviceToken(let b), .unregisterCustomerDeviceToken(let b): return try encoder.encode(b)
        case .updatePushPreferences(let b): return try encoder.encode(b)
        case .addOrderDevice(_, let b), .updateOrderDevice(_, _, let b), .updateDeviceStatus(_, _, let b),
            .executeDeviceAction(_, _, let b), .createOrder(let b), .updateOrder(_, let b), .addOrderItem(_, let b),
            .updateOrderItem(_, _, let b), .addOrderPayment(_, let b), .captureSignature(_, let b), .createClient(let b),
            .updateClient(_, let b), .importClients(let b), .createTicket(let b), .updateTicket(_, let b),
            .replyToTicket(_, let b), .addTicketNote(_, let b), .reassignTicket(_, let b), .createEnquiry(let b),
            .approveCustomerOrder(_, let b), .replyToCustomerOrder(_, let b):
            return b
        default: return nil
        }
    }
}
