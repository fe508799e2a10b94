import Foundation
import RepairMinderModels
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The operator's commands against a running server's database: `company` approves what
/// registration created, `audit` reads the activity log (docs/API.md §9.1, §9.4).
@Suite(.serialized) struct OperatorCommandTests {
    /// POSTs or GETs JSON to the server; the status and the decoded body.
    static func call(_ url: String, _ method: String = "POST", body: [String: String]? = nil, bearer: String? = nil) async throws
        -> (status: Int, json: [String: Any])
    {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = method
        if let body {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await URLSession.shared.data(for: request)
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, json)
    }

    @Test func aRegisteredShopIsApprovedByTheOperatorAndTheActivityIsAudited() async throws {
        let server = try ClientCommandTests.Server()
        let email = "ada@fixit.test"
        let registered = try await Self.call(
            server.url + "/api/auth/register",
            body: ["companyName": "Fixit Phones", "firstName": "Ada", "lastName": "Lovelace", "email": email, "password": "violet kettle 1987 drum"])
        #expect(registered.status == 201)
        let code = try server.latestCode(to: email)
        let verified = try await Self.call(server.url + "/api/auth/register/verify", body: ["email": email, "code": code])
        let token = try #require((verified.json["data"] as? [String: Any])?["token"] as? String)
        #expect(try await Self.call(server.url + "/api/user/device-tokens", "GET", bearer: token).status == 403)

        let list = try CommandLineTests.run(["company", "list", "--data-dir", server.dataDir])
        #expect(list.status == 0, "\(list.error)")
        let line = try #require(list.output.split(separator: "\n").first { $0.contains("Fixit Phones") })
        #expect(line.contains("pending_approval"))
        #expect(line.contains("(1 staff"))

        let unknown = try CommandLineTests.run(["company", "approve", "No Such Shop", "--data-dir", server.dataDir])
        #expect(unknown.status != 0)
        #expect(unknown.error.contains("no shop has the id or name \"No Such Shop\""))

        let approve = try CommandLineTests.run(["company", "approve", "Fixit Phones", "--data-dir", server.dataDir])
        #expect(approve.output == "Fixit Phones: pending_approval → active\n", "\(approve.error)")
        // The next request sees it.
        #expect(try await Self.call(server.url + "/api/user/device-tokens", "GET", bearer: token).status == 200)
        let companyId = try #require(line.split(separator: " ").first.map(String.init))
        let suspend = try CommandLineTests.run(["company", "suspend", companyId, "--data-dir", server.dataDir])
        #expect(suspend.output == "Fixit Phones: active → suspended\n", "\(suspend.error)")
        #expect(try await Self.call(server.url + "/api/user/device-tokens", "GET", bearer: token).status == 403)

        let audit = try CommandLineTests.run(["audit", "--email", email, "--json", "--since", "1h", "--data-dir", server.dataDir])
        #expect(audit.status == 0, "\(audit.error)")
        let types = audit.output.split(separator: "\n").compactMap { line in
            ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["event"] as? [String: Any]
        }.compactMap { $0["type"] as? String }
        #expect(types == ["registered", "login_succeeded"])
        #expect(!audit.output.contains(code))
        let bad = try CommandLineTests.run(["audit", "--since", "soon", "--data-dir", server.dataDir])
        #expect(bad.status != 0)
        #expect(bad.error.contains("--since must be a number followed by s, m, h or d"))
    }
}
