/// The tabs of the staff app (seed 003).
public enum StaffTab: String, CaseIterable, Sendable {
    case dashboard, devices, orders, enquiries, settings

    public var title: String {
        switch self {
        case .dashboard: "Dashboard"
        case .devices: "Devices"
        case .orders: "Orders"
        case .enquiries: "Enquiries"
        case .settings: "Settings"
        }
    }

    /// The tab a deep link opens.
    public static func tab(for link: DeepLink) -> StaffTab {
        switch link {
        case .order: .orders
        case .device: .devices
        case .enquiry: .enquiries
        }
    }
}

/// The tabs of the customer app (seed 003).
public enum CustomerTab: String, CaseIterable, Sendable {
    case orders, settings

    public var title: String {
        switch self {
        case .orders: "Orders"
        case .settings: "Settings"
        }
    }
}
