import Foundation
import Observation

/// Where the app is showing: the selected tab of each role, and the detail a deep link opened.
/// The tab views bind their selection to it, so a notification tap moves the UI. A link that
/// arrives while nobody is signed in waits (`pending`) and is opened at the next sign-in.
@MainActor @Observable
public final class DeepLinkRouter {
    public var staffTab: StaffTab = .dashboard
    public var customerTab: CustomerTab = .orders
    /// The detail to show on top of the tab (an order, a device, an enquiry); nil: the tab's list.
    public var destination: DeepLink?
    /// A link that came while signed out, opened at the next sign-in.
    public private(set) var pending: DeepLink?

    public init() {}

    /// Opens `link` for `role`'s app, or keeps it until someone signs in (`role` nil). A customer
    /// opens order and device links on the Orders tab; enquiries are staff-only.
    public func open(_ link: DeepLink, as role: AppRole?) {
        guard let role else {
            pending = link
            return
        }
        pending = nil
        switch role {
        case .staff:
            staffTab = StaffTab.tab(for: link)
            destination = link
        case .customer:
            guard link.isCustomerLink else { return }
            customerTab = .orders
            destination = link
        }
    }

    /// Someone signed in: a waiting link opens now.
    public func signedIn(as role: AppRole) {
        if let pending { open(pending, as: role) }
    }

    /// The detail was closed.
    public func dismissDestination() {
        destination = nil
    }

    /// Back to the first tab, nothing open (at sign-out).
    public func reset() {
        staffTab = .dashboard
        customerTab = .orders
        destination = nil
    }
}

extension DeepLink {
    /// Whether a customer's app can show it: their orders and devices, not the shop's enquiries.
    public var isCustomerLink: Bool {
        switch self {
        case .order, .device: true
        case .enquiry: false
        }
    }
}
