import Foundation
import Observation

/// The whole app's sign-in state in one place: which role was chosen, the two auth state
/// machines on one `APIClient`, and which screen that means. The SwiftUI root view only
/// switches on `screen`, so this logic is tested on Linux too.
@MainActor @Observable
public final class AppModel {
    /// The screen the app should show.
    public enum Screen: Equatable, Sendable {
        case launching
        case roleSelection
        case staffLogin, staffSecondFactor, staffMagicCode, staffMain
        case customerLogin, customerCode, customerCompanySelection, customerMain
    }

    public let api: APIClient
    public let roles: RoleSelectionViewModel
    public let staff: StaffAuth
    public let customer: CustomerAuth
    public private(set) var hasLaunched = false

    public init(api: APIClient) {
        self.api = api
        roles = RoleSelectionViewModel(store: api.store)
        staff = StaffAuth(api: api)
        customer = CustomerAuth(api: api)
    }

    /// Restores the chosen role's session; call once when the app starts.
    public func launch() async {
        switch roles.role {
        case .staff: await staff.restoreSession()
        case .customer: await customer.restoreSession()
        case nil: break
        }
        hasLaunched = true
    }

    public var screen: Screen {
        guard hasLaunched else { return .launching }
        switch roles.role {
        case nil:
            return .roleSelection
        case .staff:
            switch staff.state {
            case .signedOut: return .staffLogin
            case .awaitingSecondFactor: return .staffSecondFactor
            case .awaitingMagicCode: return .staffMagicCode
            case .signedIn, .offline: return .staffMain
            }
        case .customer:
            switch customer.state {
            case .signedOut: return .customerLogin
            case .codeSent: return .customerCode
            case .selectingCompany: return .customerCompanySelection
            case .signedIn, .offline: return .customerMain
            }
        }
    }

    /// Back to the role choice from a login screen ("I'm a customer" / "I'm staff").
    public func switchRole() {
        staff.cancel()
        customer.cancel()
        roles.clear()
    }
}
