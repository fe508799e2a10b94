import ArgumentParser
import Foundation
import RepairMinderModels
import Testing

@testable import repairminder

/// Every served route reaches people through the SDK and through the `repairminder` tool, or is
/// listed below with the reason it does not: a new endpoint whose SDK call or command was
/// forgotten fails here, by its name in the route table (the mounting has its own test,
/// `RouteTableTests.everyServedRouteIsMountedAndNothingElse`).
@Suite struct RouteCoverageTests {
    static let platformAdministration = [
        "platformAdmin.companies", "platformAdmin.company", "platformAdmin.approve", "platformAdmin.suspend", "platformAdmin.reactivate",
        "platformAdmin.users", "platformAdmin.signOutUser", "platformAdmin.audit", "platformAdmin.mail",
    ]
    static let seed004Aliases = ["accounts.currentUser", "accounts.company"]
    static let forOtherSoftware: [String: String] = [
        "public.health": "a probe for load balancers and orchestrators",
        "public.liveness": "a probe for load balancers and orchestrators",
        "public.readiness": "a probe for load balancers and orchestrators",
        "public.jwks": "the keys for services that verify our tokens; apps leave that to the server",
        "public.appleAppSiteAssociation": "read by iOS itself, to open universal links in the app",
        "public.companyLogo": "an image, loaded by its address (a company's `logoUrl`)",
    ]

    /// Served routes the SDK does not send, and why.
    static let notInTheSDK: [String: String] = forOtherSoftware
        .merging(platformAdministration.map { ($0, "done in the web console (§15.6) and by the operator's commands; no app screen does it") }) { $1 }
        .merging(seed004Aliases.map { ($0, "seed 004's, for the real backend's clients: /api/auth/me answers the member and their shop") }) { $1 }
        .merging(["public.openAPI": "the document, for code generators and API testers"]) { $1 }

    /// Served routes no command of the tool sends, and why.
    static let notInTheTool: [String: String] = forOtherSoftware
        .merging(platformAdministration.map { ($0, "on the server, `company` and `admin` do it without signing in; elsewhere the console") }) { $1 }
        .merging(seed004Aliases.map { ($0, "`whoami` shows the member and their shop, from /api/auth/me") }) { $1 }
        .merging([
            "public.openAPI": "`repairminder openapi` writes the document from the route table, no server needed",
            "public.config": "labels and workflows an app shows",
            "staffAuth.refresh": "sent by the SDK under every command, when the access token has expired",
            "reki.refresh": "sent by the SDK under every `reki` command, when the access token has expired",
            "reki.forgotPassword": "REKI's reset is a link in a mail, opened in a browser (the reset page)",
            "reki.resetPassword": "REKI's reset is a link in a mail, opened in a browser (the reset page)",
            "passkeys.registrationOptions": "a passkey needs an authenticator a terminal lacks: added in the app or the console",
            "passkeys.register": "a passkey needs an authenticator a terminal lacks: added in the app or the console",
            "passkeys.loginOptions": "a passkey needs an authenticator a terminal lacks: used in the app or the console",
            "passkeys.login": "a passkey needs an authenticator a terminal lacks: used in the app or the console",
        ]) { $1 }
        .merging(
            ["push.registerDeviceToken", "push.unregisterDeviceToken", "push.registerCustomerDeviceToken", "push.unregisterCustomerDeviceToken",
             "push.deviceTokens", "push.preferences", "push.updatePreferences"].map { ($0, "a terminal gets no notifications: a phone's (the SDK's PushRegistration, PushSettingsClient)") }
        ) { $1 }

    /// Every served route by its name in the table: `team.sessions` is `Routes.team.sessions`.
    static let served: [String: AnyRoute] = Dictionary(
        uniqueKeysWithValues: Routes.features.flatMap { feature in
            let featureName = propertyName(of: feature)
            return Mirror(reflecting: feature).children.compactMap { child -> (String, AnyRoute)? in
                guard let label = child.label, let route = (child.value as? any ErasableRoute)?.erased, route.availability == .served
                else { return nil }
                return ("\(featureName).\(label)", route)
            }
        })

    /// The name of `feature`'s property in `Routes` (`staffAuth` for `StaffAuth`), as declared in
    /// the table's sources: `Routes.features` lists values, not names.
    static func propertyName(of feature: any RouteFeature) -> String {
        let type = String(describing: Swift.type(of: feature))
        return declaredFeatures[type] ?? type
    }

    /// `public static let staffAuth = StaffAuth()` of every feature, by type.
    static let declaredFeatures: [String: String] = {
        let folder = root.appendingPathComponent("Sources/RepairMinderModels/Routes")
        var names: [String: String] = [:]
        for file in (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [] {
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            for match in text.matches(of: /public static let `?(\w+)`? = (\w+)\(\)/) { names[String(match.2)] = String(match.1) }
        }
        return names
    }()

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The routes the SDK's sources name (`Routes.team.sessions`, ``Routes.`public`.health``).
    static func sentBySDK() throws -> Set<String> {
        let sources = root.appendingPathComponent("Sources/RepairMinderKit")
        var names = Set<String>()
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: /Routes\.`?(\w+)`?\.(\w+)/) { names.insert("\(match.1).\(match.2)") }
        }
        return names
    }

    /// The routes the tool's commands declare they send (`SendsRoutes`), the whole tree walked.
    static func sentByTheTool() -> Set<String> {
        let byDescription = Dictionary(served.map { ($0.value.description, $0.key) }, uniquingKeysWith: { first, _ in first })
        var names = Set<String>()
        var pending: [any ParsableCommand.Type] = [RepairMinderCommand.self]
        while let command = pending.popLast() {
            pending += command.configuration.subcommands
            for route in (command as? any SendsRoutes.Type)?.sends ?? [] {
                if let name = byDescription[route.erased.description] { names.insert(name) }
            }
        }
        return names
    }

    @Test func everyFeatureIsNamedAsTheTableDeclaresIt() {
        for feature in Routes.features {
            #expect(Self.declaredFeatures[String(describing: type(of: feature))] != nil, "\(type(of: feature)) has no `public static let` in Routes")
        }
    }

    @Test func everyServedRouteHasAnSDKCall() throws {
        let sent = try Self.sentBySDK()
        let missing = Set(Self.served.keys).subtracting(sent).subtracting(Self.notInTheSDK.keys)
        #expect(missing.sorted() == [], "served routes the SDK never sends: add a call, or a reason to notInTheSDK")
        let stale = Set(Self.notInTheSDK.keys).filter { sent.contains($0) || Self.served[$0] == nil }
        #expect(stale.sorted() == [], "listed as not in the SDK, but sent by it or not a served route")
    }

    @Test func everyServedRouteHasACommand() {
        let sent = Self.sentByTheTool()
        let missing = Set(Self.served.keys).subtracting(sent).subtracting(Self.notInTheTool.keys)
        #expect(missing.sorted() == [], "served routes no command sends: add one (and its `sends`), or a reason to notInTheTool")
        let stale = Set(Self.notInTheTool.keys).filter { sent.contains($0) || Self.served[$0] == nil }
        #expect(stale.sorted() == [], "listed as not in the tool, but sent by a command or not a served route")
    }
}
