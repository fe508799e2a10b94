import Foundation
import Observation
import RepairMinderModels

/// The customer's email screen.
@MainActor @Observable
public final class CustomerLoginViewModel: AsyncForm {
    public var email = ""
    public var isLoading = false
    public var errorMessage: String?
    public let auth: CustomerAuth
    /// The shop this app or domain belongs to (seed 000's custom domains), if it is one shop's.
    public let companyId: String?

    public init(auth: CustomerAuth, companyId: String? = nil) {
        self.auth = auth
        self.companyId = companyId
    }

    public var canSubmit: Bool { FormValidation.isValidEmail(email) && !isLoading }

    public func submit() async {
        guard canSubmit else { return }
        await perform { try await auth.requestCode(email: email, companyId: companyId) }
    }
}

/// Picking one of several repair shops (seed 000's `requiresCompanySelection`).
@MainActor @Observable
public final class CompanySelectionViewModel: AsyncForm {
    public var isLoading = false
    public var errorMessage: String?
    public let auth: CustomerAuth

    public init(auth: CustomerAuth) {
        self.auth = auth
    }

    public var companies: [CustomerCompany] {
        if case .selectingCompany(let selection) = auth.state { return selection.companies }
        return []
    }

    public func select(_ company: CustomerCompany) async {
        await perform { try await auth.selectCompany(id: company.id) }
    }

    public func cancel() { auth.cancel() }
}

/// Settings: who is signed in, and sign-out for either role.
@MainActor @Observable
public final class SettingsViewModel {
    public private(set) var isSigningOut = false
    private let staff: StaffAuth?
    private let customer: CustomerAuth?

    public init(staff: StaffAuth) {
        self.staff = staff
        customer = nil
    }

    public init(customer: CustomerAuth) {
        self.customer = customer
        staff = nil
    }

    /// The staff sign-in this screen belongs to (for the password and devices screens); nil for a customer.
    public var staffAuth: StaffAuth? { staff }

    /// The "Delete account" screen's model, for whoever is signed in.
    public func deleteAccountModel() -> DeleteAccountViewModel {
        DeleteAccountViewModel(staff: staff, customer: customer)
    }

    /// Whether Settings shows "Team": the signed-in staff member may manage it (an admin).
    public var canManageTeam: Bool {
        guard case .signedIn(let me) = staff?.state else { return false }
        return me.user.role.may(.usersManage)
    }

    /// Whether Settings shows "Sign-in requirements" (the shop's security policy, docs/API.md
    /// §13): the signed-in staff member may change it (`company:manage`: an admin).
    public var canManageSecurityPolicy: Bool {
        guard case .signedIn(let me) = staff?.state else { return false }
        return me.user.role.may(.companyManage)
    }

    /// "Name (email)" of who is signed in, for the settings header.
    public var signedInAs: String? {
        if case .signedIn(let me) = staff?.state {
            let name = [me.user.firstName, me.user.lastName].compactMap { $0 }.joined(separator: " ")
            return name.isEmpty ? me.user.email : "\(name) (\(me.user.email))"
        }
        if case .signedIn(let me) = customer?.state { return "\(me.client.name) (\(me.client.email))" }
        return nil
    }

    /// Always ends signed out locally, whatever the server says.
    public func signOut() async {
        isSigningOut = true
        defer { isSigningOut = false }
        await staff?.logout()
        await customer?.logout()
    }
}
