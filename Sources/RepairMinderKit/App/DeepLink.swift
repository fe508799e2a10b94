import Foundation

/// Where a push notification leads (docs/API.md §5, seed 003).
public enum DeepLink: Equatable, Sendable {
    case order(orderId: String)
    case device(orderId: String, deviceId: String)
    case enquiry(ticketId: String)

    /// Reads a notification's payload (`type` plus ids); nil for unknown types or missing ids.
    public init?(payload: [AnyHashable: Any]) {
        func id(_ key: String) -> String? {
            switch payload[key] {
            case let string as String where !string.isEmpty: return string
            case let number as Int: return String(number)
            default: return nil
            }
        }
        guard let type = payload["type"] as? String else { return nil }
        switch type {
        case "order_created", "order_status_changed", "order_collected", "payment_received":
            guard let order = id("order_id") else { return nil }
            self = .order(orderId: order)
        case "device_status_changed", "quote_approved", "quote_rejected", "device_assigned":
            guard let order = id("order_id"), let device = id("device_id") else { return nil }
            self = .device(orderId: order, deviceId: device)
        case "new_enquiry", "enquiry_reply":
            guard let ticket = id("ticket_id") else { return nil }
            self = .enquiry(ticketId: ticket)
        default:
            return nil
        }
    }
}

/// A link into the app from a mail (an iOS universal link, docs/API.md §12.3): the server's
/// `/invite?token=…` opens the invitation's accept screen.
public enum UniversalLink: Equatable, Sendable {
    case invitation(token: String)

    /// Reads `url`; nil for a link the app does not handle.
    public init?(url: URL) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        switch components.path {
        case "/invite":
            guard let token = components.queryItems?.first(where: { $0.name == "token" })?.value, !token.isEmpty else { return nil }
            self = .invitation(token: token)
        default:
            return nil
        }
    }
}

