import Foundation
import Hummingbird
import RepairMinderModels
import Testing

@testable import RepairMinderServer

/// A route declares the budgets it spends (`RouteBudget`) and the route mounter spends and
/// settles them: the routes here are added by the test, with handlers that count nothing
/// themselves, and still answer 429 once their declared budget is used up.
@Suite struct RouteBudgetTests {
    /// Signs in when the password is "right"; "gone" is a refusal that says nothing about the
    /// password (taken back); anything else is a wrong password (kept).
    static let passwordChecked = Route<LoginRequest, MessageResponse>(
        .post, "/api/test/password-checked", .none, "A test route with a declared failed-secrets budget",
        budgets: [.failedSecrets(by: .bodyEmail, namespace: "test")])
    static let perIP = Route<EmptyPayload, MessageResponse>(
        .post, "/api/test/per-ip", .none, "A test route with the per-IP limit", budgets: [.clientIP])
    /// Spends a second-factor try for the user its handler finds, then finds the code wrong.
    static let handlerKeyed = Route<EmptyPayload, MessageResponse>(
        .post, "/api/test/handler-keyed", .none, "A test route whose handler names its budget's key",
        budgets: [.secondFactors(by: .foundByHandler)])

    static func mount(_ routes: RouteMounter) {
        routes.on(passwordChecked, use: { call in
            switch call.body.password {
            case "right": return MessageResponse(message: "signed in")
            case "gone": throw APIError.accountDeactivated
            default: throw APIError.invalidCredentials
            }
        })
        routes.on(perIP, use: { _ in MessageResponse(message: "counted") })
        routes.on(handlerKeyed, use: { call -> MessageResponse in
            try await call.spend(.secondFactors, key: "user-found-by-the-handler")
            throw APIError.invalidVerificationCode
        })
    }

    static func login(_ client: TestClient, _ email: String, _ password: String) async throws -> Reply {
        try await client.post(passwordChecked.path.description, ["email": email, "password": password])
    }

    @Test func aDeclaredFailedSecretsBudgetAnswers429AfterItAndASuccessStartsItAfresh() async throws {
        let server = try await TestServer { $0.loginFailureLimit = 3 }
        try await server.run(mountingAlso: Self.mount) { client in
            let victim = "ada@budget.test"
            for _ in 0..<2 { try await Self.login(client, victim, "wrong").expectFailure(.unauthorized, "INVALID_CREDENTIALS") }
            #expect(try await Self.login(client, victim, "right").status == .ok)  // the count starts afresh
            for _ in 0..<3 { try await Self.login(client, victim, "wrong").expectFailure(.unauthorized, "INVALID_CREDENTIALS") }
            let limited = try await Self.login(client, victim, "right")
            limited.expectFailure(.tooManyRequests, "RATE_LIMITED")
            #expect(limited.headers[.retryAfter].flatMap(Int.init).map { $0 > 0 } == true)
            // The budget is the address's (normalised by its rule), not anyone's.
            try await Self.login(client, " ADA@budget.test ", "wrong").expectFailure(.tooManyRequests, "RATE_LIMITED")
            try await Self.login(client, "bob@budget.test", "wrong").expectFailure(.unauthorized, "INVALID_CREDENTIALS")
            // Refusals that say nothing of the secret are taken back: never 429.
            for _ in 0..<6 {
                try await Self.login(client, "carol@budget.test", "gone").expectFailure(.unauthorized, "ACCOUNT_DEACTIVATED")
            }
            // The counter is the declared namespace's: staff sign-in's own budget is untouched.
            let counters = try await server.withDatabase { db in
                try await db.withConnection { try await $0.raw("SELECT key FROM request_windows").all(decodingColumn: "key", as: String.self) }
            }
            #expect(Set(counters).isSuperset(of: ["login-failures:test:ada@budget.test"]))
            #expect(!counters.contains("login-failures:ada@budget.test"))
        }
    }

    @Test func aDeclaredPerIPBudgetAnswers429AfterIt() async throws {
        let server = try await TestServer { $0.ipRateLimit = 2 }
        try await server.run(mountingAlso: Self.mount) { client in
            for _ in 0..<2 { #expect(try await client.send(.post, Self.perIP.path.description).status == .ok) }
            try await client.send(.post, Self.perIP.path.description).expectFailure(.tooManyRequests, "RATE_LIMITED")
        }
    }

    @Test func aBudgetKeyedByTheHandlerIsSettledByTheMounter() async throws {
        let server = try await TestServer { $0.secondFactorFailureLimit = 2 }
        try await server.run(mountingAlso: Self.mount) { client in
            for _ in 0..<2 {
                try await client.send(.post, Self.handlerKeyed.path.description).expectFailure(.unauthorized, "INVALID_CODE")
            }
            try await client.send(.post, Self.handlerKeyed.path.description).expectFailure(.tooManyRequests, "RATE_LIMITED")
        }
    }

    /// How each kind settles a counted try, from the answer: the one table of docs/API.md §7.
    @Test func eachKindSettlesFromTheAnswer() {
        typealias Limits = AbuseLimits
        #expect(Limits.settlement(of: .failedSecrets, after: nil) == .startAfresh)
        #expect(Limits.settlement(of: .failedSecrets, after: APIError.invalidCredentials) == .keep)
        #expect(Limits.settlement(of: .failedSecrets, after: APIError.accountDeactivated) == .refund)
        #expect(Limits.settlement(of: .failedSecrets, after: APIError.internalError) == .keep)
        #expect(Limits.settlement(of: .secondFactors, after: nil) == .refund)
        #expect(Limits.settlement(of: .secondFactors, after: APIError.invalidVerificationCode) == .keep)
        #expect(Limits.settlement(of: .secondFactors, after: APIError.loginChallengeExpired) == .refund)
        #expect(Limits.settlement(of: .wrongCodes, after: APIError.invalidOrExpiredCode) == .keep)
        #expect(Limits.settlement(of: .wrongCodes, after: APIError.weakPassword("too short")) == .refund)
        #expect(Limits.settlement(of: .codeEmails, after: APIError.invalidCredentials) == .keep)
        #expect(Limits.settlement(of: .clientIP, after: nil) == .keep)
        #expect(Limits.settlement(of: .invitations, after: nil) == .keep)
        #expect(Limits.settlement(of: .invitations, after: APIError.invitationPending) == .refund)
    }

    /// Every budget the table declares is keyed by something its route's calls have.
    @Test func everyDeclaredBudgetHasItsKey() {
        for route in Routes.served {
            for budget in route.budgets {
                switch budget.key {
                case .bodyEmail:
                    guard case .object(let properties, _)? = route.requestType?.schema else {
                        Issue.record("\(route): \(budget) without a body")
                        continue
                    }
                    #expect(properties.contains { $0.name == "email" }, "\(route): \(budget)")
                case .callerEmail, .callerId, .callerCompany: #expect(route.credential == .staff, "\(route): \(budget)")
                case .clientIP: #expect(budget.kind == .clientIP, "\(route): \(budget)")
                case .foundByHandler: break
                }
            }
        }
    }
}
