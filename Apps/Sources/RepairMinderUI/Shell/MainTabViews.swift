#if canImport(SwiftUI)
import RepairMinderKit
import SwiftUI

/// The staff app: Dashboard, Devices, Orders, Enquiries and Settings (seed 003). The selected
/// tab and the open detail follow the `DeepLinkRouter`, so a notification tap lands on them.
/// During a grace period of the shop's security policy, a banner above the tabs says what to
/// set up and by when (docs/API.md §13.3).
public struct StaffMainTabView: View {
    let settings: SettingsViewModel
    @Bindable var router: DeepLinkRouter
    let lock: BiometricLock?

    /// - Parameter lock: the Face ID / Touch ID lock whose switch Settings shows (nil: none).
    public init(settings: SettingsViewModel, router: DeepLinkRouter, lock: BiometricLock? = nil) {
        self.settings = settings
        self.router = router
        self.lock = lock
    }

    public var body: some View {
        VStack(spacing: 0) {
            if let staff = settings.staffAuth { EnrolmentBanner(auth: staff) }
            tabs
        }
    }

    private var tabs: some View {
        TabView(selection: $router.staffTab) {
            ForEach(StaffTab.allCases, id: \.self) { tab in
                NavigationStack {
                    Group {
                        if tab == .settings {
                            SettingsView(model: settings, lock: lock)
                        } else {
                            PlaceholderScreen(title: tab.title)
                        }
                    }
                    .navigationDestination(isPresented: router.showsDestination(on: { StaffTab.tab(for: $0) == tab })) {
                        DeepLinkDetail(link: router.destination)
                    }
                }
                .tabItem { Label(tab.title, systemImage: Self.icon(tab)) }
                .tag(tab)
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

/// The customer app: Orders and Settings (seed 003); order and device links open on Orders.
public struct CustomerMainTabView: View {
    let settings: SettingsViewModel
    @Bindable var router: DeepLinkRouter
    let lock: BiometricLock?

    /// - Parameter lock: the Face ID / Touch ID lock whose switch Settings shows (nil: none).
    public init(settings: SettingsViewModel, router: DeepLinkRouter, lock: BiometricLock? = nil) {
        self.settings = settings
        self.router = router
        self.lock = lock
    }

    public var body: some View {
        TabView(selection: $router.customerTab) {
            NavigationStack {
                PlaceholderScreen(title: CustomerTab.orders.title)
                    .navigationDestination(isPresented: router.showsDestination(on: \.isCustomerLink)) {
                        DeepLinkDetail(link: router.destination)
                    }
            }
            .tabItem { Label(CustomerTab.orders.title, systemImage: "doc.text") }
            .tag(CustomerTab.orders)
            NavigationStack { SettingsView(model: settings, lock: lock) }
                .tabItem { Label(CustomerTab.settings.title, systemImage: "gear") }
                .tag(CustomerTab.settings)
        }
    }
}

/// What a deep link opened; the order, device and enquiry screens are a later stage's.
struct DeepLinkDetail: View {
    let link: DeepLink?

    var body: some View {
        switch link {
        case .order(let order): PlaceholderScreen(title: "Order \(order)")
        case .device(let order, let device): PlaceholderScreen(title: "Device \(device) of order \(order)")
        case .enquiry(let ticket): PlaceholderScreen(title: "Enquiry \(ticket)")
        case nil: EmptyView()
        }
    }
}

extension DeepLinkRouter {
    /// Whether the open detail belongs on the tab `belongs` accepts; setting false closes it.
    /// (SwiftUI takes a binding's closures as `@Sendable`: they run on the main actor, where
    /// the router lives.)
    @MainActor
    func showsDestination(on belongs: @escaping @Sendable (DeepLink) -> Bool) -> Binding<Bool> {
        Binding(
            get: { @MainActor in self.destination.map(belongs) ?? false },
            set: { @MainActor in if !$0 { self.dismissDestination() } })
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

/// Settings: who is signed in, the Face ID / Touch ID lock, and sign out.
struct SettingsView: View {
    let model: SettingsViewModel
    let lock: BiometricLock?

    var body: some View {
        Form {
            if let who = model.signedInAs {
                Section("Signed in as") { Text(who) }
            }
            if let staff = model.staffAuth {
                Section("Security") {
                    NavigationLink("Password") { ChangePasswordView(auth: staff) }
                    NavigationLink("Signed-in devices") { SignedInDevicesView(auth: staff) }
                    NavigationLink("Passkeys") { PasskeysView(auth: staff) }
                }
                if model.canManageTeam || model.canManageSecurityPolicy {
                    Section("Shop") {
                        if model.canManageTeam {
                            NavigationLink("Team") { TeamView(team: TeamClient(api: staff.api)) }
                        }
                        if model.canManageSecurityPolicy {
                            NavigationLink("Sign-in requirements") { SecurityPolicyView(client: SecurityPolicyClient(api: staff.api)) }
                        }
                    }
                }
            }
            if let lock, let name = lock.biometryName {
                Section {
                    Toggle(
                        "Require \(name)",
                        isOn: Binding(get: { @MainActor in lock.isEnabled }, set: { @MainActor on in Task { await lock.setEnabled(on) } }))
                } footer: {
                    if let problem = lock.problem { Text(problem) } else { Text("Asked when the app opens and after 5 minutes away.") }
                }
            }
            Section {
                NavigationLink("Delete Account") { DeleteAccountView(model: model.deleteAccountModel()) }
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

#if !SWIFTUI_STAND_IN  // #Preview is a macro Xcode implements (StandIns/README.md)
#Preview("Staff tabs") {
    StaffMainTabView(settings: SettingsViewModel(staff: PreviewSupport.app().staff), router: DeepLinkRouter())
}
#endif

#if !SWIFTUI_STAND_IN  // #Preview is a macro Xcode implements (StandIns/README.md)
#Preview("Customer tabs") {
    CustomerMainTabView(settings: SettingsViewModel(customer: PreviewSupport.app().customer), router: DeepLinkRouter())
}
#endif
#endif
