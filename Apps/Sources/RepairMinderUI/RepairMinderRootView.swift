#if canImport(SwiftUI)
import RepairMinderKit
import SwiftUI

/// The app's root: restores the session at launch, then shows the screen `AppModel` says. The
/// session state drives it: when the server ends a session, `AppModel` moves back to sign-in
/// and the reason is shown once. While the app is in the foreground the staff session is
/// refreshed ahead of expiry.
///
/// ```swift
/// @main struct RepairMinderApp: App {
///     @UIApplicationDelegateAdaptor private var delegate: RepairMinderAppDelegate
///     var body: some Scene { WindowGroup { RepairMinderRootView(app: delegate.app) } }
/// }
/// ```
public struct RepairMinderRootView: View {
    @State private var app: AppModel
    /// The invitation a universal link (`/invite?token=…`) opened, shown as a sheet.
    @State private var invitation: String?
    @Environment(\.scenePhase) private var scenePhase

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
            case .locked:
                LockedView(app: app)
            case .credentialsUnreadable:
                CredentialsUnreadableView(app: app)
            case .staffLogin:
                Owned { StaffLoginViewModel(auth: app.staff) } content: { StaffLoginView(model: $0, onSwitchRole: app.switchRole) }
            case .staffSecondFactor:
                Owned { TwoFactorViewModel(auth: app.staff) } content: { TwoFactorView(model: $0) }
            case .staffMagicCode:
                Owned { MagicCodeViewModel(auth: app.staff) } content: { MagicLinkCodeView(model: $0) }
            case .staffQuarantined:
                QuarantineView(auth: app.staff)
            case .staffEnrolment:
                // The shop requires a factor the user has not set up, past its deadline
                // (docs/API.md §13.3): set it up here, then the tabs, in the same session.
                Owned { EnrolmentViewModel(auth: app.staff) } content: { EnrolmentView(model: $0) }
            case .staffMain:
                Owned { SettingsViewModel(staff: app.staff) } content: { StaffMainTabView(settings: $0, router: app.router, lock: app.lock) }
            case .customerLogin:
                Owned { CustomerLoginViewModel(auth: app.customer) } content: {
                    CustomerLoginView(model: $0, onSwitchRole: app.switchRole)
                }
            case .customerCode, .customerCompanySelection:
                // Choosing among several shops is a sheet over the code screen (seed 003).
                Owned { CustomerCodeViewModel(auth: app.customer) } content: { CustomerMagicCodeView(model: $0) }
                    .sheet(isPresented: .constant(app.screen == .customerCompanySelection)) {
                        Owned { CompanySelectionViewModel(auth: app.customer) } content: { CompanySelectionView(model: $0) }
                            .interactiveDismissDisabled()
                    }
            case .customerMain:
                Owned { SettingsViewModel(customer: app.customer) } content: { CustomerMainTabView(settings: $0, router: app.router, lock: app.lock) }
            }
        }
        .animation(.default, value: app.screen)
        .overlay(alignment: .top) {
            if let problem = app.launchProblem {
                Text(problem).font(.callout).padding().background(.thinMaterial, in: .rect(cornerRadius: 8)).padding()
            } else if app.isOffline {
                // The network path is gone (`SystemNetworkPathMonitor`): requests would fail.
                Label("You're offline", systemImage: "wifi.slash")
                    .font(.callout).padding().background(.thinMaterial, in: .rect(cornerRadius: 8)).padding()
            }
        }
        .alert("Signed out", isPresented: .constant(app.notice != nil), presenting: app.notice) { _ in
            Button("OK") { app.dismissNotice() }
        } message: { notice in
            Text(notice)
        }
        .task {
            if !app.hasLaunched { await app.launch() }
        }
        .onOpenURL { url in
            if case .invitation(let token)? = UniversalLink(url: url) { invitation = token }
        }
        .sheet(isPresented: Binding(get: { @MainActor in invitation != nil }, set: { @MainActor shown in if !shown { invitation = nil } })) {
            if let invitation {
                NavigationStack { AcceptInvitationView(token: invitation, auth: app.staff) }
            }
        }
        .onChange(of: scenePhase, initial: true) { _, phase in
            app.scenePhaseChanged(to: AppScenePhase(phase))
        }
    }
}

/// Holds a screen's view model for as long as the screen is shown: made once when it appears,
/// not at every render of the parent (which would lose what was typed).
struct Owned<Model: AnyObject, Content: View>: View {
    let make: () -> Model
    @ViewBuilder let content: (Model) -> Content
    @State private var model: Model?

    var body: some View {
        if let model {
            content(model)
        } else {
            Color.clear.onAppear { model = make() }
        }
    }
}

#if !SWIFTUI_STAND_IN  // #Preview is a macro Xcode implements (StandIns/README.md)
#Preview("Root") {
    RepairMinderRootView(app: PreviewSupport.app())
}
#endif
#endif
