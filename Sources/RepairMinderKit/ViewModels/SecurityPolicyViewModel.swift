import Foundation
import Observation
import RepairMinderModels

/// Settings → "Sign-in requirements", for an admin (docs/API.md §13.1): what the shop's staff
/// must enrol, the grace period to do it in, whether a magic link signs them in, and how long
/// their sessions last. The form edits a copy; `save()` sends only what changed.
@MainActor @Observable
public final class SecurityPolicyViewModel: AsyncForm {
    /// The policy as the server last answered; nil until loaded.
    public private(set) var policy: SecurityPolicy?
    public var requiredFactor: RequiredFactor = .notRequired
    public var allowMagicLink = true
    public var enrolmentGraceDays = 7
    public var sessionMaxWebDays = 30
    public var sessionMaxMobileDays = 365
    public var isLoading = false
    public var errorMessage: String?
    /// Shown after a save ("Saved. …").
    public private(set) var confirmation: String?
    public let client: SecurityPolicyClient

    /// The grace periods an admin may choose, in days.
    public static let graceDays = SecurityPolicyUpdate.graceDays
    /// The requirements offered, weakest first.
    public static let requiredFactors = RequiredFactor.allCases

    public init(client: SecurityPolicyClient) {
        self.client = client
    }

    public func load() async {
        await perform { show(try await client.policy()) }
    }

    /// What `save()` would send: the fields that differ from the loaded policy; nil when none do.
    public var change: SecurityPolicyUpdate? {
        guard let policy else { return nil }
        var change = SecurityPolicyUpdate()
        if requiredFactor != policy.requiredFactor { change.requiredFactor = requiredFactor }
        if allowMagicLink != policy.allowMagicLink { change.allowMagicLink = allowMagicLink }
        if enrolmentGraceDays != policy.enrolmentGraceDays { change.enrolmentGraceDays = enrolmentGraceDays }
        var lifetimes = SessionLifetimeUpdate()
        if sessionMaxWebDays != policy.sessionMaxLifetimeDays.web { lifetimes.web = sessionMaxWebDays }
        if sessionMaxMobileDays != policy.sessionMaxLifetimeDays.mobile { lifetimes.mobile = sessionMaxMobileDays }
        if lifetimes != SessionLifetimeUpdate() { change.sessionMaxLifetimeDays = lifetimes }
        return change == SecurityPolicyUpdate() ? nil : change
    }

    /// What is wrong with the form by the rules a client can check; nil when they pass. The
    /// server also refuses a lifetime beyond its own, with its own message.
    public var problem: String? {
        if !Self.graceDays.contains(enrolmentGraceDays) {
            return "The grace period is \(Self.graceDays.lowerBound) to \(Self.graceDays.upperBound) days."
        }
        if sessionMaxWebDays < 1 || sessionMaxMobileDays < 1 { return "A session lasts at least 1 day." }
        return nil
    }

    public var canSave: Bool { change != nil && problem == nil && !isLoading }

    /// Sends the changes; the form then shows the policy as saved.
    public func save() async {
        guard canSave, let change else { return }
        confirmation = nil
        if await perform({ show(try await client.update(change)) }) {
            confirmation = change.requiredFactor == nil && change.sessionMaxLifetimeDays == nil
                ? "Saved." : "Saved. Signed-in staff follow the new requirements at their next refresh."
        }
    }

    /// Puts the form back to the policy as loaded.
    public func discardChanges() {
        if let policy { show(policy) }
    }

    /// "Last changed by admin@acme.test on 2026-11-24T10:15:02Z"; nil for a policy never changed.
    public var lastChanged: String? {
        guard let policy, let at = policy.updatedAt else { return nil }
        guard let by = policy.updatedBy else { return "Last changed on \(at)" }
        return "Last changed by \(by.email) on \(at)"
    }

    /// How the settings screen names a requirement.
    public static func title(of factor: RequiredFactor) -> String {
        switch factor {
        case .notRequired: "Nothing more"
        case .appOrPasskey: "An authenticator app or a passkey"
        case .passkey: "A passkey"
        case .unknown(let raw): raw
        }
    }

    /// What the chosen requirement means for the staff.
    public var requiredFactorExplanation: String {
        switch requiredFactor {
        case .notRequired:
            "Staff sign in with a password and an emailed code, or a magic link, unless they set up something stronger."
        case .appOrPasskey:
            "Staff without an authenticator app or a passkey are asked to set one up. "
                + "After the grace period, they can do nothing else until they have."
        case .passkey:
            "Staff without a passkey are asked to set one up; an authenticator app is not enough. "
                + "After the grace period, they can do nothing else until they have."
        case .unknown:
            "A requirement this version of the app does not know."
        }
    }

    private func show(_ policy: SecurityPolicy) {
        self.policy = policy
        requiredFactor = policy.requiredFactor
        allowMagicLink = policy.allowMagicLink
        enrolmentGraceDays = policy.enrolmentGraceDays
        sessionMaxWebDays = policy.sessionMaxLifetimeDays.web
        sessionMaxMobileDays = policy.sessionMaxLifetimeDays.mobile
    }
}
