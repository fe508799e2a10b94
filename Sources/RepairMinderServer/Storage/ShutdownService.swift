import ServiceLifecycle

/// Closes the database and the hashing pool after the HTTP server has finished its requests.
struct ShutdownService: Service {
    let database: Database
    let hasher: PasswordHasher

    func run() async throws {
        // Wait for graceful shutdown (SIGTERM/SIGINT or the application ending), then clean up.
        try? await gracefulShutdown()
        await database.close()
        await hasher.shutdown()
    }
}

/// Listed by name when the service group logs its services (`--verbose`), not by what it holds.
extension ShutdownService: CustomStringConvertible {
    var description: String { "ShutdownService" }
}
