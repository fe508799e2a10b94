import Foundation
import RepairMinderModels

/// Where the signed-in staff member stands against their shop's security policy (docs/API.md
/// §13.3), as the last sign-in or refresh said: full access, full access until a deadline (the
/// grace period: the app shows a banner), or a session restricted to enrolment (the app shows
/// the enrolment screen instead of its tabs).
///
/// `APIClient.enrolmentStatus` and `enrolmentStatuses()` announce it, `StaffAuth.enrolment`
/// follows it, and it is kept with the stored tokens, so a relaunch knows it before any request.
public struct EnrolmentStatus: Sendable, Equatable {
    /// What to enrol and by when; nil when the shop requires nothing the user lacks.
    public var requirement: EnrolmentRequirement?
    /// The session may only enrol (its tokens' `scope` is `"enrol"`): every other staff route
    /// answers `APIError.enrolmentRequired` until the user enrols and the session is refreshed.
    public var isRestricted: Bool

    public init(requirement: EnrolmentRequirement?, isRestricted: Bool) {
        self.requirement = requirement
        self.isRestricted = isRestricted
    }

    /// Nothing required: what a shop without a policy, or a user who enrolled, has.
    public static let fullAccess = EnrolmentStatus(requirement: nil, isRestricted: false)

    /// What stored tokens say; full access without any.
    init(_ credentials: SessionCredentials?) {
        self.init(requirement: credentials?.enrolmentRequired, isRestricted: credentials?.isEnrolmentOnly ?? false)
    }

    /// Full access, with a factor to enrol before `deadline`.
    public var isInGracePeriod: Bool { requirement != nil && !isRestricted }

    /// The factors the shop accepts, in the order to offer them (`[.totp, .passkey]` or `[.passkey]`).
    public var methods: [TwoFactorMethod] { requirement?.methods ?? [] }

    /// The requirement's deadline; nil when nothing is required (or the server's timestamp
    /// cannot be read).
    public var deadline: Date? {
        guard let text = requirement?.deadline else { return nil }
        return (try? Date(text, strategy: .iso8601))
            ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    }
}
