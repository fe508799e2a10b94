import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import RepairMinderServer

/// `repairminder seed`'s loader (docs/FIXTURES.md).
@Suite struct FixtureTests {
    /// Every row of the fixture tables, for before/after comparisons.
    static func snapshot(_ db: Database) async throws -> [String] {
        try await db.withConnection { db in
            var rows: [String] = []
            for table in ["companies", "users", "clients"] {
                for row in try await db.raw("SELECT * FROM \(unsafeRaw: table) ORDER BY id").all() {
                    // Numbers first, in full: a driver may also turn a float into text, rounded.
                    let values = row.allColumns.sorted().map { column in
                        let number = (try? row.decode(column: column, as: Double?.self)) ?? nil
                        let text = (try? row.decode(column: column, as: String?.self)) ?? nil
                        return "\(column)=\(number.map { "\($0)" } ?? text ?? "null")"
                    }
                    rows.append("\(table): " + values.joined(separator: ","))
                }
            }
            return rows
        }
    }

    @Test func loadingTheSameFileTwiceChangesNothing() async throws {
        let server = try await TestServer()
        try await server.withDatabase { db in
            let before = try await Self.snapshot(db)
            let ids = try await FixtureLoader(database: db, bcryptCost: 4).load(DemoFixtures.file)
            let after = try await Self.snapshot(db)
            #expect(before == after)
            // The snapshot does see a change of a time column (so the comparison above can fail).
            try await db.withConnection { try await $0.raw("UPDATE users SET updated_at = updated_at + 1").run() }
            #expect(try await Self.snapshot(db) != after)
            #expect(ids.users.count == DemoFixtures.file.users!.count)
            #expect(ids.companies.count == 4)
            #expect(ids.clients.count == 3)
        }
    }

    @Test func aChangedFileUpdatesThoseRowsAndAServerSeesItAtOnce() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let token = try #require(try await client.signIn(DemoFixtures.engineerEmail, DemoFixtures.engineerPassword).string("token"))
            // Load while the server runs on the same database file.
            var file = DemoFixtures.file
            let index = try #require(file.users!.firstIndex { $0.email == DemoFixtures.engineerEmail })
            file.users![index].isActive = false
            let deactivated = file
            try await server.withDatabase { db in _ = try await FixtureLoader(database: db, bcryptCost: 4).load(deactivated) }
            try await client.send(.get, "/api/auth/me", bearer: token).expectFailure(.unauthorized, "UNAUTHORIZED")
            try await client.post("/api/auth/login", ["email": DemoFixtures.engineerEmail, "password": DemoFixtures.engineerPassword])
                .expectFailure(.unauthorized, "ACCOUNT_DEACTIVATED")
            // And back.
            file.users![index].isActive = true
            let reactivated = file
            try await server.withDatabase { db in _ = try await FixtureLoader(database: db, bcryptCost: 4).load(reactivated) }
            _ = try await client.login(DemoFixtures.engineerEmail, DemoFixtures.engineerPassword)
        }
    }

    @Test func aChangedPasswordIsRehashedAndTheOldOneStopsWorking() async throws {
        let server = try await TestServer()
        var file = DemoFixtures.file
        let index = try #require(file.users!.firstIndex { $0.email == DemoFixtures.adminEmail })
        file.users![index].password = "a brand new password"
        let changed = file
        try await server.withDatabase { db in _ = try await FixtureLoader(database: db, bcryptCost: 4).load(changed) }
        try await server.run { client in
            try await client.post("/api/auth/login", ["email": DemoFixtures.adminEmail, "password": DemoFixtures.adminPassword])
                .expectFailure(.unauthorized, "INVALID_CREDENTIALS")
            _ = try await client.login(DemoFixtures.adminEmail, "a brand new password")
        }
    }

    @Test func badFixturesAreRefusedWithAClearMessageAndChangeNothing() async throws {
        let server = try await TestServer()
        try await server.withDatabase { db in
            let before = try await Self.snapshot(db)
            var unknownCompany = FixtureFile()
            unknownCompany.users = [.init(email: "x@acme.test", firstName: "X", lastName: "Y", company: "No Such Co", role: "admin")]
            await #expect(throws: SettingsError.self) { _ = try await FixtureLoader(database: db, bcryptCost: 4).load(unknownCompany) }
            var badRole = DemoFixtures.file
            badRole.users![0].role = "overlord"
            await #expect(throws: SettingsError.self) { _ = try await FixtureLoader(database: db, bcryptCost: 4).load(badRole) }
            var badStatus = DemoFixtures.file
            badStatus.companies![0].status = "closed"
            await #expect(throws: SettingsError.self) { _ = try await FixtureLoader(database: db, bcryptCost: 4).load(badStatus) }
            #expect(try await Self.snapshot(db) == before)
        }
    }
}
