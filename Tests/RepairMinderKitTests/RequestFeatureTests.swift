import Foundation
import RepairMinderKit
import RepairMinderModels
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Lists, filters, action bodies, snake_case models, retries, the logging hook and the
/// User-Agent (issue 17, item 3), against a scripted transport: the catalogue's feature routes
/// are the real backend's, not this server's.
@Suite struct RequestFeatureTests {
    static let base = URL(string: "https://rm.example")!
    static let fast = RetryPolicy(attempts: 3, baseDelay: .milliseconds(10), maxDelay: .milliseconds(40))

    /// A customer signed in, so staff-free routes and customer routes both have a credential.
    static func client(
        _ transport: ScriptedTransport, log: (@Sendable (RequestRecord) -> Void)? = nil,
        sleep: @escaping @Sendable (Duration) async throws -> Void = SDKClock.system.sleep
    ) throws -> APIClient {
        let store = InMemoryCredentialStore()
        try store.saveStaff(StaffCredentials(accessToken: "staff-access-token", refreshToken: "staff-refresh-token",
                                             accessTokenExpiresAt: Date().addingTimeInterval(3600)))
        return APIClient(baseURL: base, store: store, transport: transport, retry: fast, log: log, sleep: sleep)
    }

    /// An app's own model of an order, with camelCase properties.
    struct Order: Decodable, Equatable {
        let id: String
        let orderNumber: Int
        let customerName: String
    }

    @Test func pagesCarryTheFiltersAndStopAfterTheLast() async throws {
        let transport = ScriptedTransport { request in
            let query = URLComponents(url: request.url!, resolvingAgainstBaseURL: false)?.queryItems ?? []
            let page = Int(query.first { $0.name == "page" }?.value ?? "") ?? 0
            let body = """
                {"success":true,"data":[{"id":"o\(page)","order_number":\(100 + page),"customer_name":"Jane"}],
                 "pagination":{"page":\(page),"limit":1,"total":2,"total_pages":2}}
                """
            return (200, body, [:])
        }
        let api = try Self.client(transport)
        let first = try await api.page(Routes.orders.list, limit: 1, filters: ["status": "ready"])
        #expect(first.pagination.totalPages == 2)
        #expect(first.hasNextPage)
        #expect(try first.map { try $0.decoded(as: Order.self) }.items == [Order(id: "o1", orderNumber: 101, customerName: "Jane")])
        let second = try #require(try await api.nextPage(after: first, of: Routes.orders.list))
        #expect(second.items.first?["id"] == "o2")
        #expect(!second.hasNextPage)
        #expect(try await api.nextPage(after: second, of: Routes.orders.list) == nil)
        #expect(transport.requests.map(\.url!.query) == ["page=1&limit=1&status=ready", "page=2&limit=1&status=ready"])

        // A filter the route does not take is refused before anything is sent.
        await #expect(throws: APIError.self) { _ = try await api.page(Routes.orders.list, filters: ["colour": "red"]) }
        #expect(transport.requests.count == 2)
    }

    @Test func actionPostsSendTheirBodies() async throws {
        let transport = ScriptedTransport { _ in (200, #"{"success":true,"data":{"sent":true}}"#, [:]) }
        let api = try Self.client(transport)
        let answer = try await api.send(Routes.orders.sendQuote, ["message": "Ready on Friday"], path: ["o1"])
        #expect(answer["sent"] == true)
        let request = try #require(transport.requests.last)
        #expect(request.httpMethod == "POST")
        #expect(request.url?.path == "/api/orders/o1/send-quote")
        #expect(try JSONDecoder().decode(JSONValue.self, from: try #require(request.httpBody)) == ["message": "Ready on Friday"])
    }

    @Test func idempotentRequestsAreRetriedOnNetworkErrorsAnd503() async throws {
        let answers = Answers([Answers.failure, (503, "busy", ["Retry-After": "60"]), (200, #"{"success":true,"data":{"ok":true}}"#, [:])])
        let transport = ScriptedTransport { _ in try answers.next() }
        let waits = Locked([Duration]())
        let api = try Self.client(transport, sleep: { wait in waits.update { $0.append(wait) } })
        #expect(try await api.send(Routes.orders.detail, path: ["o1"])["ok"] == true)
        #expect(transport.requests.count == 3)
        // A wait before each retry; Retry-After (a minute) is honoured only up to the policy's
        // longest delay (40 ms).
        #expect(waits.value.count == 2)
        #expect(waits.value.last == .milliseconds(40))
        #expect(waits.value.allSatisfy { $0 <= .milliseconds(40) }, "\(waits.value)")

        // A POST is never retried: it may have been done.
        let posts = ScriptedTransport { _ in (503, "busy", [:]) }
        await #expect(throws: APIError.server(status: 503, message: "Service Unavailable", code: nil)) {
            _ = try await Self.client(posts).send(Routes.orders.collect, ["signature": "s"], path: ["o1"])
        }
        #expect(posts.requests.count == 1)

        // Three tries at most, then the last failure.
        let down = ScriptedTransport { _ in throw URLError(.notConnectedToInternet) }
        await #expect(throws: APIError.self) { _ = try await Self.client(down).send(Routes.orders.detail, path: ["o1"]) }
        #expect(down.requests.count == 3)
    }

    @Test func theLogHearsEveryTryAndNoSecret() async throws {
        let records = RecordLog()
        let answers = Answers([(503, "busy", [:]), (200, #"{"success":true,"data":[],"pagination":{"page":1,"limit":20,"total":0,"total_pages":0}}"#, [:])])
        let transport = ScriptedTransport { _ in try answers.next() }
        let api = try Self.client(transport) { records.append($0) }
        _ = try await api.page(Routes.clients.list, filters: ["q": "jane@example.test"])
        #expect(records.all.map(\.status) == [503, 200])
        #expect(records.all.map(\.attempt) == [1, 2])
        #expect(records.all.allSatisfy { $0.path == "/api/clients" && $0.method == "GET" })
        let text = records.all.map(\.description).joined(separator: "\n")
        #expect(!text.contains("staff-access-token"))
        #expect(!text.contains("jane@example.test"))
        #expect(text.contains("GET /api/clients → 200"))
    }

    @Test func everyRequestCarriesTheUserAgentOfAPIMd() async throws {
        let transport = ScriptedTransport { _ in (200, #"{"success":true,"data":{}}"#, [:]) }
        _ = try await Self.client(transport).send(Routes.dashboard.stats, query: [URLQueryItem(name: "period", value: "week")])
        let agent = try #require(transport.requests.last?.value(forHTTPHeaderField: "User-Agent"))
        #if os(iOS)
        #expect(agent.wholeMatch(of: /RepairMinder-iOS\/[0-9.]+ \(iPhone; iOS [0-9]+\.[0-9]+(\.[0-9]+)?\)/) != nil)
        #else
        #expect(agent == "RepairMinderKit/1.0 (Linux)" || agent == "RepairMinderKit/1.0 (macOS)")
        #endif
        #expect(RepairMinderUserAgent.systemVersion(OperatingSystemVersion(majorVersion: 18, minorVersion: 0, patchVersion: 0)) == "18.0")
        #expect(RepairMinderUserAgent.systemVersion(OperatingSystemVersion(majorVersion: 17, minorVersion: 4, patchVersion: 1)) == "17.4.1")
    }
}

extension RequestFeatureTests {
    /// `Retry-After` as RFC 9110 writes it, read one way by both clients: seconds, or an
    /// HTTP-date counted from the answer's `Date`; anything else is no wait (issue 24).
    @Test func retryAfterIsReadTheSameWayByEveryClient() async throws {
        let sent = "Sun, 06 Nov 1994 08:49:37 GMT"
        let cases: [(value: String, date: String?, seconds: Int?)] = [
            ("7", nil, 7), (" 120 ", nil, 120), ("99999999999999999999999", nil, 2_147_483_648),
            ("Sun, 06 Nov 1994 08:50:07 GMT", sent, 30), ("Sunday, 06-Nov-94 08:50:07 GMT", sent, 30),
            ("Sun Nov  6 08:50:07 1994", sent, 30), ("Sun, 06 Nov 1994 08:49:00 GMT", sent, 0),
            ("-5", nil, nil), ("+7", nil, nil), ("1.5", nil, nil), ("soon", nil, nil), ("", nil, nil),
        ]
        for (value, date, seconds) in cases {
            var headers = ["Retry-After": value]
            headers["Date"] = date
            let limited = ScriptedTransport { [headers] _ in (429, #"{"success":false,"error":"Too many requests","code":"RATE_LIMITED"}"#, headers) }
            await #expect(throws: APIError.rateLimited(retryAfter: seconds, message: "Too many requests"), "\(value)") {
                _ = try await Self.client(limited).send(Routes.orders.collect, ["signature": "s"], path: ["o1"])
            }
            let rekiBody = #"{"statusCode":429,"message":"Too Many Requests","timestamp":"2026-02-15T10:00:00.000Z"}"#
            let reki = REKIClient(
                baseURL: Self.base, store: InMemoryCredentialStore(), transport: ScriptedTransport { [headers] _ in (429, rekiBody, headers) })
            await #expect(throws: APIError.rateLimited(retryAfter: seconds, message: "Too Many Requests"), "\(value)") {
                try await reki.login(email: "reki.user@example.com", password: "violet kettle 1987")
            }
        }
    }
}

/// A transport that answers from a script and keeps every request it was given.
final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var sent: [URLRequest] = []
    private let answer: @Sendable (URLRequest) throws -> (Int, String, [String: String])

    init(_ answer: @escaping @Sendable (URLRequest) throws -> (Int, String, [String: String])) {
        self.answer = answer
    }

    var requests: [URLRequest] { lock.withLock { sent } }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        lock.withLock { sent.append(request) }
        let (status, body, headers) = try answer(request)
        let response = HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
        return (Data(body.utf8), response)
    }
}

/// Answers given in turn; `.failure` is a dropped connection.
final class Answers: @unchecked Sendable {
    typealias Answer = (Int, String, [String: String])
    static let failure: Answer = (0, "", [:])
    private let lock = NSLock()
    private var queue: [Answer]
    init(_ answers: [Answer]) { queue = answers }
    func next() throws -> Answer {
        let answer = lock.withLock { queue.isEmpty ? (500, "script ran out", [:]) : queue.removeFirst() }
        if answer.0 == 0 { throw URLError(.networkConnectionLost) }
        return answer
    }
}

/// What the logging hook heard.
final class RecordLog: @unchecked Sendable {
    private let lock = NSLock()
    private var records: [RequestRecord] = []
    func append(_ record: RequestRecord) { lock.withLock { records.append(record) } }
    var all: [RequestRecord] { lock.withLock { records } }
}
