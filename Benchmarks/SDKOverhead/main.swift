// Measures what RepairMinderKit's APIClient adds per request over a bare URLSession call to the
// same endpoint (GET /api/auth/me with a bearer token, decoding the same response type), against
// the real server on 127.0.0.1.
//
//   swift run -c release SDKOverheadBenchmark [requests=2000] [port=18181]
import Foundation
import Logging
import RepairMinderKit
import RepairMinderModels
import RepairMinderServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let requests = arguments.first ?? 2000
let port = arguments.dropFirst().first ?? 18181

var settings = ServerSettings()
settings.dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("rm-sdk-bench-\(UUID().uuidString)").path
settings.port = port
settings.bcryptCost = 4
settings.ipRateLimit = 0
settings.codeResendInterval = 0
settings.codeEmailsPerHour = 0
defer { try? FileManager.default.removeItem(atPath: settings.dataDirectory) }
var logger = Logger(label: "bench")
logger.logLevel = .error

let database = try await Database.openMigrated(settings: settings, logger: logger)
_ = try await FixtureLoader(database: database, bcryptCost: 4).load(DemoFixtures.file)
await database.close()
let app = try await buildApplication(settings: settings, logger: logger)
let serverTask = Task { try await app.runService() }
let base = URL(string: "http://127.0.0.1:\(port)")!
let api = APIClient(baseURL: base, store: InMemoryCredentialStore())
for _ in 0..<100 {
    if (try? await api.send(Routes.public.health)) != nil { break }
    try await Task.sleep(for: .milliseconds(50))
}

// Sign in through the SDK.
let challenge = try await api.send(
    Routes.staffAuth.login, LoginRequest(email: DemoFixtures.adminEmail, password: DemoFixtures.adminPassword))
_ = try await api.send(
    Routes.staffAuth.requestTwoFactorCode, TwoFactorCodeRequest(userId: challenge.userId, email: challenge.email))
let queue = try await Database.open(settings: settings, logger: logger)
let mail = try await MailQueue(database: queue, encryptionKey: settings.resolvedEncryptionKey())
    .messages(to: DemoFixtures.adminEmail).last?.text ?? ""
await queue.close()
guard let codeRange = mail.range(of: #"\d{6}"#, options: .regularExpression) else { fatalError("no code in the mail queue") }
let code = String(mail[codeRange])
let tokens = try await api.send(
    Routes.staffAuth.verifyTwoFactorCode, TwoFactorVerifyRequest(userId: challenge.userId, code: code))
try await api.signedIn(staff: tokens)

let session = URLSession(configuration: .ephemeral)
func bare() async throws {
    var request = URLRequest(url: base.appendingPathComponent(Routes.staffAuth.me.path.description))
    request.setValue("Bearer \(tokens.token)", forHTTPHeaderField: "Authorization")
    let (data, _) = try await session.data(for: request)
    _ = try APIClient.decodeData(StaffMeResponse.self, from: data)
}
func sdk() async throws {
    _ = try await api.send(Routes.staffAuth.me)
}

func measure(_ name: String, _ body: () async throws -> Void) async throws -> [Double] {
    for _ in 0..<200 { try await body() }  // warm up connections and caches
    var samples: [Double] = []
    samples.reserveCapacity(requests)
    for _ in 0..<requests {
        let start = ContinuousClock.now
        try await body()
        let elapsed = ContinuousClock.now - start
        samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
    }
    samples.sort()
    let median = samples[samples.count / 2], p90 = samples[samples.count * 9 / 10]
    print("\(name): median \(String(format: "%.1f", median)) µs, p90 \(String(format: "%.1f", p90)) µs over \(requests) requests")
    return samples
}

// Interleave the two a few times so drift in the machine's load affects both alike.
var bareMedians: [Double] = [], sdkMedians: [Double] = []
for round in 1...3 {
    print("round \(round)")
    bareMedians.append(try await measure("  bare URLSession", bare)[requests / 2])
    sdkMedians.append(try await measure("  RepairMinderKit", sdk)[requests / 2])
}
let overhead = zip(sdkMedians, bareMedians).map { $0 - $1 }.sorted()[1]
print("SDK overhead per request (median of per-round median differences): \(String(format: "%.1f", overhead)) µs")
serverTask.cancel()
exit(0)
