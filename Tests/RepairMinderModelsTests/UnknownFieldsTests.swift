import Foundation
import RepairMinderModels
import Testing

/// A body member its type does not know (docs/API.md §1): refused, naming it and the field
/// meant, on the routes of §11 onwards; ignored on the routes legacy apps call (§2–§10), where
/// a known field in another spelling is read rather than dropped.
@Suite struct UnknownFieldsTests {
    /// The features of §11 onwards: every body of theirs refuses what it does not know.
    static let strictFeatures = [
        Routes.passkeys.name, Routes.team.name, Routes.securityPolicy.name, Routes.clients.name, Routes.platformAdmin.name, Routes.apps.name,
    ]
    /// Routes added to the older features later, as strict as the new features (§9.5).
    static let strictRoutes = [Routes.accountLifecycle.deleteAccount.description]

    /// Every JSON body type of the served routes, with whether its feature is one of §11 onwards
    /// (or the route is one of `strictRoutes`).
    static var bodies: [(type: any WireRequest.Type, strict: Bool, route: String)] {
        Routes.features.flatMap { feature in
            feature.routes.filter { $0.availability == .served }.compactMap { route in
                (route.requestType as? any WireRequest.Type).map {
                    ($0, strictFeatures.contains(feature.name) || strictRoutes.contains(route.description), route.description)
                }
            }
        }
    }

    /// Whether two JSON objects are the same JSON.
    static func same(_ a: [String: Any], _ b: [String: Any]) throws -> Bool {
        try JSONSerialization.data(withJSONObject: a, options: .sortedKeys) == JSONSerialization.data(withJSONObject: b, options: .sortedKeys)
    }

    static func example(_ type: any WireRequest.Type) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(type.example)) as? [String: Any])
    }

    @Test func everyBodyOfTheNewRoutesRefusesAMemberItDoesNotKnowAndTheOldOnesIgnoreIt() throws {
        #expect(Self.bodies.count > 20)
        for (type, strict, route) in Self.bodies {
            #expect(type.unknownFields == (strict ? .refused : .tolerated), "\(route)")
            var body = try Self.example(type)
            body["unexpectedField"] = 1
            if strict {
                #expect(throws: FieldProblem("unexpectedField is not a field of this request"), "\(route)") { try type.reconciled(body) }
            } else {
                // Left for the decoder, which passes over it.
                #expect(try Self.same(type.reconciled(body), body), "\(route)")
                #expect(throws: Never.self, "\(route)") { _ = try JSONDecoder().decode(type, from: JSONSerialization.data(withJSONObject: body)) }
            }
        }
    }

    @Test func anotherSpellingOfAFieldIsNamedOrRead() throws {
        var checked = 0
        for (type, strict, route) in Self.bodies {
            let example = try Self.example(type)
            for (name, value) in example where name.contains(where: \.isUppercase) {
                let snake = name.reduce(into: "") { $0 += $1.isUppercase ? "_" + $1.lowercased() : String($1) }
                var sent = example
                sent[name] = nil
                sent[snake] = value
                if strict {
                    let problem = FieldProblem("\(snake) is not a field of this request; did you mean \(name)?")
                    #expect(throws: problem, "\(route)") { try type.reconciled(sent) }
                } else {
                    #expect(try Self.same(type.reconciled(sent), example), "\(route)")
                    // Sent both ways, the field's own spelling wins.
                    sent[name] = value
                    sent[snake] = "other"
                    #expect(try Self.same(type.reconciled(sent), example), "\(route)")
                }
                checked += 1
            }
        }
        #expect(checked > 10)
    }

    /// Inside a member that is an object of rules of its own, the same, named by its path.
    @Test func aNestedObjectIsReadByItsOwnRules() throws {
        let policy: [String: Any] = ["sessionMaxLifetimeDays": ["web": 1, "webb": 2]]
        #expect(throws: FieldProblem("sessionMaxLifetimeDays.webb is not a field of this request")) {
            try SecurityPolicyUpdate.reconciled(policy)
        }
        // A WebAuthn credential takes what browsers add as the standard grows.
        var login = try Self.example(PasskeyLoginRequest.self)
        var credential = try #require(login["credential"] as? [String: Any])
        credential["authenticatorAttachment_hint"] = "platform"
        login["credential"] = credential
        #expect(try Self.same(PasskeyLoginRequest.reconciled(login), login))
    }

    /// The common legacy body is read once: only another spelling of one of its fields makes
    /// the server look at its members.
    @Test func aToleratedBodyIsReadAgainOnlyForAnotherSpelling() {
        #expect(!RefreshRequest.needsReconciling(Data(#"{"refreshToken": "x", "extra": 1}"#.utf8)))
        #expect(RefreshRequest.needsReconciling(Data(#"{"refresh_token": "x"}"#.utf8)))
        #expect(ClientCreateRequest.needsReconciling(Data(#"{"email": "a@b.c"}"#.utf8)))
    }
}
