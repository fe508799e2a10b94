import Foundation
import Hummingbird
import RepairMinderModels

/// Sign-in requirements (docs/API.md §15.6, §13.1): the shop's security policy, which every
/// member may read, the form its admins (`company:manage`) change it with, and, for those who
/// manage the team, which active members have set up an authenticator app or a passkey (the
/// Team route's own fields: no route gives a member's deadline).
struct ConsolePolicyPages: Sendable {
    let console: Console
    let policies: SecurityPolicyController
    let team: TeamController

    static let path = "/security-policy"

    func mount(on pages: ConsoleMounting) {
        pages.get(Self.path) { try await show($0, values: nil, problem: nil) }
        pages.post(Self.path) { try await change($0, $1) }
    }

    struct PolicyPage {
        let required: String
        let magicLink: String
        let graceDays: Int
        let webDays: Int
        let mobileDays: Int
        let updated: String
        /// The form (nil for a member who may not change the policy).
        let form: Form?
        let standing: Standing?
    }

    struct Form {
        let factors: [Choice]
        let allowMagicLink: Bool
        let graceDays: String
        let webDays: String
        let mobileDays: String
        let graceMost: Int
        let webMost: Int
        let mobileMost: Int
    }

    /// A radio button of the required factor, with what it means.
    struct Choice {
        let value: String
        let label: String
        let help: String
        let checked: Bool
    }

    /// The active members and whether each meets the requirement.
    struct Standing {
        let members: [Member]
        let summary: String
        let pager: ConsoleListing.Pager
    }

    struct Member {
        let id: String
        let name: String
        let email: String
        let methods: String
        let meets: String
    }

    static let factors: [(RequiredFactor, String, String)] = [
        (.notRequired, "Nothing more", "A password and an emailed code, or a magic link, as always."),
        (.appOrPasskey, "An authenticator app or a passkey", "The emailed code no longer counts as a second factor."),
        (.passkey, "A passkey", "An authenticator app is not enough."),
    ]

    private func show(_ page: ConsolePageRequest, values: ConsoleForm?, problem: String?, status: HTTPResponse.Status = .ok)
        async throws -> Response
    {
        let policy = try await console.call(Routes.securityPolicy.policy, page, body: EmptyPayload(), policies.policy)
        let settings = console.settings
        var form: Form?
        if page.may(Routes.securityPolicy.update.erased) {
            // After a refusal the form shows what was typed; the facts above it, the policy as it is.
            let factor = values.map { $0.text("requiredFactor") } ?? policy.requiredFactor.rawValue
            form = Form(
                factors: Self.factors.map { Choice(value: $0.0.rawValue, label: $0.1, help: $0.2, checked: $0.0.rawValue == factor) },
                allowMagicLink: values.map { $0["allowMagicLink"] != nil } ?? policy.allowMagicLink,
                graceDays: values?.text("enrolmentGraceDays") ?? String(policy.enrolmentGraceDays),
                webDays: values?.text("webDays") ?? String(policy.sessionMaxLifetimeDays.web),
                mobileDays: values?.text("mobileDays") ?? String(policy.sessionMaxLifetimeDays.mobile),
                graceMost: SecurityPolicyUpdate.graceDays.upperBound, webMost: ShopPolicy.serverDays(isMobile: false, settings: settings),
                mobileMost: ShopPolicy.serverDays(isMobile: true, settings: settings))
        }
        let view = PolicyPage(
            required: Self.factors.first { $0.0 == policy.requiredFactor }?.1 ?? policy.requiredFactor.rawValue,
            magicLink: policy.allowMagicLink ? "Allowed" : "Not allowed", graceDays: policy.enrolmentGraceDays,
            webDays: policy.sessionMaxLifetimeDays.web, mobileDays: policy.sessionMaxLifetimeDays.mobile,
            updated: policy.updatedAt.map { "\(ConsoleDates.readable($0)) by \(policy.updatedBy?.email ?? "an admin")" } ?? "Never: the defaults",
            form: form, standing: try await standing(page, policy.requiredFactor))
        return console.templates.page(
            "policy", page.view("Sign-in requirements", current: "\(Console.root)\(Self.path)", page: view, problem: problem), status: status)
    }

    /// The active members, a page of 100 at a time, for whoever may list the team.
    private func standing(_ page: ConsolePageRequest, _ required: RequiredFactor) async throws -> Standing? {
        guard page.may(Routes.team.members.erased) else { return nil }
        var query = ["status": "active", "limit": "100"]
        if let number = page.query("page") { query["page"] = number }
        let (members, pagination) = try await console.call(Routes.team.members, page.calling(query: query), team.members)
        let rows = members.map { member in
            let methods = [member.totpEnabled ? "authenticator app" : nil, member.passkeyCount > 0 ? "\(member.passkeyCount) passkey(s)" : nil]
                .compactMap { $0 }
            let meets: Bool? = switch required {
            case .notRequired: nil
            case .appOrPasskey: member.totpEnabled || member.passkeyCount > 0
            case .passkey, .unknown: member.passkeyCount > 0
            }
            return Member(
                id: member.user.id, name: ConsoleTeamPages.displayName(member.user), email: member.user.email,
                methods: methods.isEmpty ? "Neither" : methods.joined(separator: ", "),
                meets: meets.map { $0 ? "Yes" : "Not yet" } ?? "Nothing is required")
        }
        let missing = rows.filter { $0.meets == "Not yet" }.count
        let summary = required == .notRequired
            ? "Nothing more is required. This is who has set up a stronger way to sign in anyway."
            : "\(missing) of the \(rows.count) active members listed here have not set up what the shop requires yet."
        return Standing(members: rows, summary: summary, pager: ConsoleListing.pager(pagination, path: Self.path, query: [:]))
    }

    private func change(_ page: ConsolePageRequest, _ form: ConsoleForm) async throws -> Response {
        do {
            let body = try Self.body(form)
            _ = try await console.call(Routes.securityPolicy.update, page, body: body, policies.update)
        } catch let error as APIError where error.status == .badRequest {
            return try await show(page, values: form, problem: error.message, status: error.status)
        }
        return console.redirect("\(Self.path)?notice=saved")
    }

    /// The form as the API's JSON body: each field as a browser sent it (a number field's text
    /// as a number when it is one, as text otherwise; an empty one absent, so unchanged),
    /// decoded by the body's own type, so a wrong value is refused in the API's words.
    static func body(_ form: ConsoleForm) throws -> SecurityPolicyUpdate {
        func number(_ name: String) -> Any? {
            let text = FieldRules.trimmingWhitespace(form.text(name))
            if text.isEmpty { return nil }
            if let whole = Int(text) { return whole }
            if let number = Double(text), number.isFinite { return number }
            return text
        }
        var object: [String: Any] = ["allowMagicLink": form["allowMagicLink"] != nil]
        if let factor = form["requiredFactor"] { object["requiredFactor"] = factor }
        if let grace = number("enrolmentGraceDays") { object["enrolmentGraceDays"] = grace }
        var lifetimes: [String: Any] = [:]
        if let web = number("webDays") { lifetimes["web"] = web }
        if let mobile = number("mobileDays") { lifetimes["mobile"] = mobile }
        if !lifetimes.isEmpty { object["sessionMaxLifetimeDays"] = lifetimes }
        let data = try JSONSerialization.data(withJSONObject: object)
        do {
            return try JSONDecoder().decode(SecurityPolicyUpdate.self, from: data)
        } catch let error as DecodingError {
            throw RequestDecoder.apiError(for: error)
        }
    }
}
