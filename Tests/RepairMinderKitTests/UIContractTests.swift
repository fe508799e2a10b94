import Foundation
import RepairMinderKit
import RepairMinderModels
import Testing

/// RepairMinderUI cannot be type-checked on Linux (no SwiftUI). This file uses every member
/// its views use, with the same shapes, so a renamed or removed member fails this build.
@MainActor
@Suite struct UIContractTests {
    @Test func everyMemberTheViewsUseExists() async {
        let app = AppModel(api: APIClient(baseURL: URL(fileURLWithPath: "/"), store: InMemoryCredentialStore()))
        let screens: [AppModel.Screen] = [
            .launching, .roleSelection, .staffLogin, .staffSecondFactor, .staffMagicCode, .staffQuarantined, .staffMain,
            .customerLogin, .customerCode, .customerCompanySelection, .customerMain,
        ]
        #expect(screens.contains(app.screen))
        if !app.hasLaunched { await app.launch() }
        let switchRole: () -> Void = app.switchRole
        _ = switchRole
        // RepairMinderRootView: the notice alert, the launch problem, the foreground refresh.
        let _: String? = app.notice, _: String? = app.launchProblem
        app.dismissNotice()
        app.appBecameActive()
        app.appWillResignActive()

        // RoleSelectionView
        app.roles.select(.staff)

        // StaffLoginView
        let login = StaffLoginViewModel(auth: app.staff)
        login.mode = .magicLink
        login.mode = StaffLoginViewModel.Mode.password
        login.email = ""
        login.password = ""
        let _: Bool = login.canSubmit, _: Bool = login.isLoading, _: String? = login.errorMessage
        let submit: () async -> Void = login.submit
        _ = submit
        let _: Bool = login.offersPasskey
        let _: () async -> Void = login.signInWithPasskey

        // TwoFactorView
        let twoFactor = TwoFactorViewModel(auth: app.staff)
        twoFactor.usesRecoveryCode = false
        let _: String = twoFactor.code, _: Bool = twoFactor.offersAuthenticator, _: Bool = twoFactor.canSubmit
        let _: Int = twoFactor.resendCooldown, _: Bool = twoFactor.isLoading, _: String? = twoFactor.errorMessage
        let changed: @MainActor (String) async -> Void = twoFactor.codeChanged
        _ = changed
        let _: () async -> Void = twoFactor.submit, _: () async -> Void = twoFactor.resend
        let _: String? = twoFactor.email
        let _: Bool = twoFactor.offersEmailedCode, _: Bool = twoFactor.offersPasskey
        let _: () async -> Void = twoFactor.usePasskey
        twoFactor.tick()
        twoFactor.auth.cancel()

        // MagicLinkCodeView and CustomerMagicCodeView
        let magic = MagicCodeViewModel(auth: app.staff)
        let _: String = magic.code, _: Bool = magic.isLoading, _: String? = magic.errorMessage
        let magicChanged: @MainActor (String) async -> Void = magic.codeChanged
        _ = magicChanged
        magic.cancel()
        let customerCode = CustomerCodeViewModel(auth: app.customer)
        let _: String = customerCode.code, _: Bool = customerCode.isLoading, _: String? = customerCode.errorMessage
        let customerChanged: @MainActor (String) async -> Void = customerCode.codeChanged
        _ = customerChanged
        customerCode.cancel()
        func usableByEmailCodeView<Model: EmailCodeEntry>(_ model: Model) -> String { model.code }
        _ = usableByEmailCodeView(magic) + usableByEmailCodeView(customerCode)
        // ResendButton and the code screens' header
        func usableByResendButton<Model: ResendableCode>(_ model: Model) async -> String? {
            let _: Int = model.resendCooldown, _: Bool = model.isLoading
            await model.resend()
            model.tick()
            return model.email
        }
        _ = await usableByResendButton(magic)

        // QuarantineView
        if case .signedIn(let me) = app.staff.state { let _: Bool = me.company.status == CompanyStatus.suspended }
        let reload: () async throws -> Void = app.staff.reload
        _ = reload

        // StaffMainTabView and CustomerMainTabView, bound to the router
        let router: DeepLinkRouter = app.router
        router.staffTab = StaffTab.orders
        router.customerTab = CustomerTab.orders
        let destination: DeepLink? = router.destination
        _ = destination.map(\.isCustomerLink)
        router.dismissDestination()

        // RepairMinderAppDelegate
        let push: PushCoordinator? = AppModel(api: app.api, push: nil).push
        if let push {
            await push.didReceiveDeviceToken(Data())
            let options: PushPresentation = push.presentation(for: DeepLink?.none)
            _ = options.contains(.banner) || options.contains(.sound) || options.contains(.list) || options.contains(.badge)
            push.didOpen(DeepLink?.none)
        }
        // SystemPushNotifications.authorizationStatus() maps the system's settings onto these.
        let _: [PushAuthorizationStatus] = [.notDetermined, .denied, .authorized]

        // CustomerLoginView
        let customerLogin = CustomerLoginViewModel(auth: app.customer)
        customerLogin.email = ""
        let _: Bool = customerLogin.canSubmit, _: Bool = customerLogin.isLoading, _: String? = customerLogin.errorMessage
        let _: () async -> Void = customerLogin.submit

        // CompanySelectionView
        let selection = CompanySelectionViewModel(auth: app.customer)
        let companies: [CustomerCompany] = selection.companies
        let _: String? = companies.first?.logoUrl
        let select: (CustomerCompany) async -> Void = selection.select
        _ = select
        let _: Bool = selection.isLoading, _: String? = selection.errorMessage
        let cancel: () -> Void = selection.cancel
        _ = cancel

        // Tab shells and settings
        let _: [StaffTab] = StaffTab.allCases, _: String = StaffTab.dashboard.title
        let _: String = CustomerTab.orders.title, _: String = CustomerTab.settings.title
        for settings in [SettingsViewModel(staff: app.staff), SettingsViewModel(customer: app.customer)] {
            let _: String? = settings.signedInAs, _: Bool = settings.isSigningOut
            let _: () async -> Void = settings.signOut
            let _: StaffAuth? = settings.staffAuth
        }

        // PasskeysView
        let passkeys = PasskeysViewModel(auth: app.staff)
        let listed: [Passkey] = passkeys.passkeys
        let _: String? = listed.first.map { "\($0.id) \($0.name) \($0.createdAt) \($0.lastUsedAt ?? "") \($0.backedUp)" }
        passkeys.newName = ""
        let _: Bool = passkeys.canAdd, _: Bool = passkeys.isLoading, _: String? = passkeys.errorMessage
        let _: () async -> Void = passkeys.load, _: () async -> Void = passkeys.add
        let removePasskey: (Passkey) async -> Void = passkeys.remove
        _ = removePasskey
        let _: (any PasskeyAuthenticator)? = passkeys.auth.passkeyAuthenticator

        // StaffLoginView's links: ForgotPasswordView and RegistrationView
        let _: StaffAuth = login.auth
        let registration = RegistrationViewModel(auth: app.staff)
        registration.companyName = ""
        registration.firstName = ""
        registration.lastName = ""
        registration.email = ""
        registration.password = ""
        let _: String? = registration.codeSentTo, _: String = registration.code, _: String? = registration.passwordHint
        let _: Bool = registration.canSubmit, _: Bool = registration.isLoading, _: String? = registration.errorMessage
        let _: () async -> Void = registration.submit
        let registrationCode: @MainActor (String) async -> Void = registration.codeChanged
        _ = registrationCode
        let editDetails: () -> Void = registration.editDetails
        _ = editDetails
        let forgot = ForgotPasswordViewModel(auth: app.staff)
        forgot.email = ""
        forgot.code = ""
        forgot.newPassword = ""
        let _: Bool = forgot.isDone, _: Bool = forgot.codeRequested, _: String? = forgot.passwordHint
        let _: Bool = forgot.canRequest, _: Bool = forgot.canReset, _: Bool = forgot.isLoading, _: String? = forgot.errorMessage
        let _: () async -> Void = forgot.requestCode, _: () async -> Void = forgot.reset

        // ChangePasswordView and SignedInDevicesView (Settings)
        let change = ChangePasswordViewModel(auth: app.staff)
        change.currentPassword = ""
        change.newPassword = ""
        change.confirmation = ""
        let _: Bool = change.hasPassword, _: String? = change.passwordHint, _: String? = change.confirmationMessage
        let _: Bool = change.canSubmit, _: Bool = change.isLoading, _: String? = change.errorMessage
        let _: () async -> Void = change.submit
        let devices = SignedInDevicesViewModel(auth: app.staff)
        let sessions: [SessionInfo] = devices.sessions
        if let session = sessions.first {
            let _: String = session.id, _: Bool = session.current, _: Bool = session.isMobile, _: String? = session.userAgent
            let _: String? = session.ipAddress, _: String = session.createdAt, _: String? = session.lastUsedAt
        }
        let _: Bool = devices.hasOtherDevices, _: Bool = devices.isLoading, _: String? = devices.errorMessage
        let _: () async -> Void = devices.load, _: () async -> Void = devices.signOutOtherDevices
        let signOutOne: (SessionInfo) async -> Void = devices.signOut
        _ = signOutOne
    }
}
