#if canImport(SwiftUI)
import RepairMinderKit
import SwiftUI

/// The staff app: Dashboard, Devices, Orders, Enquiries and Settings (seed 003).
public struct StaffMainTabView: View {
    let settings: SettingsViewModel

    public init(settings: SettingsViewModel) {
        self.settings = settings
    }

    public var body: some View {
        TabView {
            ForEach(StaffTab.allCases, id: \.self) { tab in
                NavigationStack {
                    if tab == .settings {
                        SettingsView(model: settings)
                    } else {
                        PlaceholderScreen(title: tab.title)
                    }
                }
                .tabItem { Label(tab.title, systemImage: Self.icon(tab)) }
            }
        }
    }

    static func icon(_ tab: StaffTab) -> String {
        switch tab {
        case .dashboard: "chart.bar"
        case .devices: "iphone"
        case .orders: "doc.text"
        case .enquiries: "envelope"
        case .settings: "gear"
        }
    }
}

/// The customer app: Orders and Settings (seed 003).
public struct CustomerMainTabView: View {
    let settings: SettingsViewModel

    public init(settings: SettingsViewModel) {
        self.settings = settings
    }

    public var body: some View {
        TabView {
            NavigationStack { PlaceholderScreen(title: CustomerTab.orders.title) }
                .tabItem { Label(CustomerTab.orders.title, systemImage: "doc.text") }
            NavigationStack { SettingsView(model: settings) }
                .tabItem { Label(CustomerTab.settings.title, systemImage: "gear") }
        }
    }
}

/// A screen a later stage fills in.
struct PlaceholderScreen: View {
    let title: String

    var body: some View {
        ContentUnavailableView(title, systemImage: "hammer", description: Text("Coming in a later release."))
            .navigationTitle(title)
    }
}

/// Settings: who is signed in, and sign out.
struct SettingsView: View {
    let model: SettingsViewModel

    var body: some View {
        Form {
            if let who = model.signedInAs {
                Section("Signed in as") { Text(who) }
            }
            if let staff = model.staffAuth {
                Section("Security") {
                    NavigationLink("Password") { ChangePasswordView(auth: staff) }
                    NavigationLink("Signed-in devices") { SignedInDevicesView(auth: staff) }
                }
            }
            Section {
                Button(role: .destructive) {
                    Task { await model.signOut() }
                } label: {
                    HStack {
                        Text("Sign Out")
                        if model.isSigningOut { Spacer(); ProgressView() }
                    }
                }
                .disabled(model.isSigningOut)
            }
        }
        .navigationTitle("Settings")
    }
}

#Preview("Staff tabs") {
    StaffMainTabView(settings: SettingsViewModel(staff: PreviewSupport.app().staff))
}

#Preview("Customer tabs") {
    CustomerMainTabView(settings: SettingsViewModel(customer: PreviewSupport.app().customer))
}
#endif
