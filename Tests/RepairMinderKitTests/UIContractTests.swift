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
            .launching, .roleSelection, .staffLogin, .staffSecondFactor, .staffMagicCode, .staffMain,
            .customerLogin, .customerCode, .customerCompanySelection, .customerMain,
        ]
        #expect(screens.contains(app.screen))
        if !app.hasLaunched { await app.launch() }
        let switchRole: () -> Void = app.switchRole
        _ = switchRole

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

        // TwoFactorView
        let twoFactor = TwoFactorViewModel(auth: app.staff)
        twoFactor.usesRecoveryCode = false
        let _: String = twoFactor.code, _: Bool = twoFactor.offersAuthenticator, _: Bool = twoFactor.canSubmit
        let _: Int = twoFactor.resendCooldown, _: Bool = twoFactor.isLoading, _: String? = twoFactor.errorMessage
        let changed: @MainActor (String) async -> Void = twoFactor.codeChanged
        _ = changed
        let _: () async -> Void = twoFactor.submit, _: () async -> Void = twoFactor.resend
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
        }
    }
}
