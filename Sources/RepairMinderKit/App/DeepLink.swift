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
