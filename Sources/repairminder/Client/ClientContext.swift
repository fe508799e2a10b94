import ArgumentParser
import Foundation
import RepairMinderKit

/// What the client commands share: where credentials live, which server, and the exit codes
/// documented in `repairminder login --help`.
struct ClientContext {
    let store: FileCredentialStore
    let server: URL
    let api: APIClient
    /// The REKI client (`repairminder reki`), on the same server and credential directory.
    var reki: REKIClient { REKIClient(baseURL: server, store: store) }

    /// Exit codes of the client commands.
    enum Exit {
        static let refused = ExitCode(1)
        static let usage = ExitCode(2)
        static let unreachable = ExitCode(3)
    }

    private static let serverFile = "server-url"
    /// The server when no `--server` was ever given: `repairminder serve`'s own default.
    static let defaultServer = "http://127.0.0.1:8080"

    /// A `--server` that differs from the remembered one: remembered once it answered (`run`).
    private let newServer: String?

    /// Uses `--server` if given, else the remembered one, else the default.
    init(server explicit: String?) throws {
        store = FileCredentialStore(directory: FileCredentialStore.defaultDirectory())
        let remembered = (try? String(contentsOf: Self.rememberedPath(store), encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let chosen = explicit ?? remembered ?? Self.defaultServer
        guard let url = URL(string: chosen), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw ValidationError("--server must be an http:// or https:// URL, got \"\(chosen)\"")
        }
        server = url
        newServer = explicit == remembered ? nil : explicit
        api = APIClient(baseURL: url, store: store)
    }

    private static func rememberedPath(_ store: FileCredentialStore) -> URL { store.directory.appendingPathComponent(serverFile) }

    /// Remembers a new `--server` for the commands after this one.
    private func rememberServer() throws {
        guard let newServer else { return }
        let path = Self.rememberedPath(store)
        try FileManager.default.createDirectory(at: store.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        guard FileManager.default.createFile(atPath: path.path, contents: Data(newServer.utf8), attributes: [.posixPermissions: 0o600])
        else { throw ClientInputError("cannot write \(path.path)") }
    }

    /// Runs a client action, turning SDK errors into one clear line and the documented exit code;
    /// `signInHint` is the command that signs in again. A new `--server` is remembered once it
    /// answered (even with a refusal), never when it could not be reached: a mistyped one does
    /// not replace the server the credentials belong to.
    func run(signInHint: String = "repairminder login", _ action: () async throws -> Void) async throws {
        do {
            try await action()
            try rememberServer()
        } catch let error as APIError {
            if case .network = error {} else { try rememberServer() }
            Terminal.note("error: \(error.message)")
            switch error {
            case .network: throw Exit.unreachable
            case .notSignedIn, .sessionExpired:
                Terminal.note("Sign in with: \(signInHint)")
                throw Exit.refused
            case .enrolmentRequired:
                // A session restricted by the shop's policy (docs/API.md §13.3).
                // The policy may take a passkey only, which this tool cannot make.
                Terminal.note(
                    "Add a passkey in the app or a browser, or, if the line above names an authenticator app, "
                        + "run: repairminder totp setup")
                throw Exit.refused
            default: throw Exit.refused
            }
        } catch let error as ClientInputError {
            Terminal.note("error: \(error.message)")
            throw Exit.usage
        }
    }
}

/// Input the client commands could not get or use.
struct ClientInputError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// A client command whose work runs on the main actor (the SDK's sign-in state machines live
/// there): `run()` opens the context of `connection`'s server and calls `perform` inside it,
/// where a failure becomes the tool's one error line and exit code (`ClientContext.run`).
protocol MainActorClientCommand: AsyncParsableCommand, Sendable {
    var connection: ServerOptions { get }
    @MainActor func perform(_ context: ClientContext) async throws
}

extension MainActorClientCommand {
    func run() async throws {
        let context = try ClientContext(server: connection.server)
        try await context.run { try await perform(context) }
    }
}
