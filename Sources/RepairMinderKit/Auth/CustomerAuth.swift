import Foundation
import Observation
import RepairMinderModels

/// The customer sign-in state machine (docs/API.md §3): email → code → (company selection) →
/// signed in. It follows the client's session state: a refused or expired customer token
/// returns it to `.signedOut` by itself.
@MainActor @Observable
public final class CustomerAuth {
    public enum State: Equatable, Sendable {
        case signedOut
        case codeSent(email: String)
        /// The email is a client of several shops: pick one (the code stays valid).
        case selectingCompany(CompanySelectionResponse)
        case signedIn(CustomerMeResponse)
        /// A token is stored but the server could not be reached to confirm it: the customer
        /// and shop as the last confirmed session had them (nil when never confirmed here).
        case offline(CustomerMeResponse?)
    }

    public private(set) var state: State = .signedOut {
        didSet { rememberProfile() }
    }
    /// The shop the code was asked for (a shop's own domain knows it, seed 000): verify sends
    /// it too, so a customer of several shops is not asked to choose.
    private var requestedCompanyId: String?
    public let api: APIClient
    /// The push token this session registered, unregistered at logout. It is kept in the
    /// credential store, so a logout after a relaunch still unregisters it.
    public var registeredDeviceToken: String? {
        get { sessionDeviceToken ?? (try? api.store.registeredDeviceToken(for: .customer)) }
        set {
            sessionDeviceToken = newValue
            // A store that cannot be written (a locked Keychain) keeps it for this launch only.
            try? api.store.saveRegisteredDeviceToken(newValue, for: .customer)
        }
    }
    @ObservationIgnored private var sessionDeviceToken: String?

    public init(api: APIClient) {
        self.api = api
        SessionFollower.follow(api, role: .customer) { [weak self] in self?.sessionEnded() }
    }

    /// At launch: signed in if the stored token still works, signed out if the server refused
    /// it (or it expired), `offline` (the session kept) for anything else: no network, 429,
    /// 5xx, an answer it could not read, or the launch being cancelled. A credential store that
    /// cannot be read throws.
    public func restoreSession() async throws {
        guard try api.store.customerCredentials() != nil else {
            state = .signedOut
            return
        }
        do {
            state = .signedIn(try await api.send(Routes.customerAuth.me))
        } catch let error as APIError where error.isRefusalOfTheSession {
            state = .signedOut
        } catch {
            state = .offline(try? api.store.customerProfile())
        }
    }

    /// Keeps the signed-in customer for an offline launch; forgets them once signed out.
    private func rememberProfile() {
        switch state {
        case .signedIn(let me):
            try? api.store.saveCustomerProfile(me)
            api.userRead(.customer(me))
        case .signedOut: try? api.store.delete(.customerProfile)
        case .offline, .codeSent, .selectingCompany: break
        }
    }

    /// The session ended without this machine (a refused or expired token): back to sign-in.
    private func sessionEnded() {
        registeredDeviceToken = nil
        switch state {
        case .signedIn, .offline: state = .signedOut
        case .signedOut, .codeSent, .selectingCompany: break
        }
    }

    /// Emails a code; with `companyId` (the app of one shop, or a shop's custom domain) only
    /// that shop's customer record is used, at request and at verify.
    public func requestCode(email: String, companyId: String? = nil) async throws {
        let trimmed = email.trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try await api.send(
            Routes.customerAuth.requestMagicLink, CustomerMagicLinkRequest(email: trimmed, companyId: companyId))
        requestedCompanyId = companyId
        state = .codeSent(email: trimmed)
    }

    /// A code was asked for earlier (by another run of a script, or before a relaunch): enter it
    /// without asking for another: each request spends the address's code budget, and one
    /// within the resend spacing (30 s) is refused.
    public func expectCode(sentTo email: String, companyId: String? = nil) {
        requestedCompanyId = companyId
        state = .codeSent(email: email.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Verifies the emailed code; several shops lead to `selectingCompany`.
    public func verify(code: String) async throws {
        guard case .codeSent(let email) = state else { throw SignInFlowError.noLoginInProgress }
        let request = CustomerVerifyCodeRequest(email: email, code: code, companyId: requestedCompanyId)
        switch try await api.send(Routes.customerAuth.verifyCode, request) {
        case .selectCompany(let selection): state = .selectingCompany(selection)
        case .signedIn(let response): try await finish(response)
        }
    }

    /// Completes a multi-shop sign-in with the chosen company.
    public func selectCompany(id: String) async throws {
        guard case .selectingCompany(let selection) = state else { throw SignInFlowError.noLoginInProgress }
        let request = CustomerVerifyCodeRequest(email: selection.email, code: selection.code, companyId: id)
        guard case .signedIn(let response) = try await api.send(Routes.customerAuth.verifyCode, request) else {
            throw APIError.decoding("The server asked for a company again after one was chosen")
        }
        try await finish(response)
    }

    /// Abandons company selection or code entry.
    public func cancel() {
        if case .signedIn = state { return }
        state = .signedOut
    }

    /// Signs out: unregisters this device's push token, tells the server (both best effort),
    /// and always clears local state, even when the server cannot be reached.
    public func logout() async {
        if let token = registeredDeviceToken {
            try? await PushRegistration.unregister(token, role: .customer, api: api)
        }
        registeredDeviceToken = nil
        _ = try? await api.send(Routes.customerAuth.logout)
        try? await api.signedOut(.customer, reason: .userInitiated)
        state = .signedOut
    }

    /// Deletes the customer's account (docs/API.md §9.5): their record in every shop becomes
    /// anonymous and every device is signed out. The sign-in must be less than 10 minutes old
    /// (the error `.reauthenticationRequired` says to sign in again with a new code).
    public func deleteAccount() async throws {
        _ = try await api.send(Routes.customerAuth.deleteAccount)
        registeredDeviceToken = nil
        try? await api.signedOut(.customer, reason: .accountDeleted)
        state = .signedOut
    }

    private func finish(_ response: CustomerTokenResponse) async throws {
        try await api.signedIn(customer: response)
        state = .signedIn(CustomerMeResponse(client: response.client, company: response.company))
    }
}
