#if canImport(SwiftUI)
import RepairMinderKit
import SwiftUI

/// The app's root: restores the session at launch, then shows the screen `AppModel` says.
///
/// ```swift
/// @main struct RepairMinderApp: App {
///     @State private var app = AppModel(api: APIClient(baseURL: URL(string: "https://api.example.com")!,
///                                                      store: KeychainCredentialStore()))
///     var body: some Scene { WindowGroup { RepairMinderRootView(app: app) } }
/// }
/// ```
public struct RepairMinderRootView: View {
    @State private var app: AppModel

    public init(app: AppModel) {
        _app = State(initialValue: app)
    }

    public var body: some View {
        Group {
            switch app.screen {
            case .launching:
                ProgressView("Loading…")
            case .roleSelection:
                RoleSelectionView(roles: app.roles)
            case .staffLogin:
                StaffLoginView(model: StaffLoginViewModel(auth: app.staff), onSwitchRole: app.switchRole)
            case .staffSecondFactor:
                TwoFactorView(model: TwoFactorViewModel(auth: app.staff))
            case .staffMagicCode:
                MagicLinkCodeView(model: MagicCodeViewModel(auth: app.staff))
            case .staffMain:
                StaffMainTabView(settings: SettingsViewModel(staff: app.staff))
            case .customerLogin:
                CustomerLoginView(model: CustomerLoginViewModel(auth: app.customer), onSwitchRole: app.switchRole)
            case .customerCode:
                CustomerMagicCodeView(model: CustomerCodeViewModel(auth: app.customer))
            case .customerCompanySelection:
                CompanySelectionView(model: CompanySelectionViewModel(auth: app.customer))
            case .customerMain:
                CustomerMainTabView(settings: SettingsViewModel(customer: app.customer))
            }
        }
        .animation(.default, value: app.screen)
        .task {
            if !app.hasLaunched { await app.launch() }
        }
    }
}

#Preview("Root") {
    RepairMinderRootView(app: PreviewSupport.app())
}
#endif
