import ArgumentParser
import Foundation
import RepairMinderKit
import RepairMinderModels

struct TOTPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "totp",
        abstract: "Manage your authenticator app (staff).",
        discussion: """
            Sign in first (repairminder login --staff); the commands act on that account.

            EXAMPLES:
              repairminder totp setup
              repairminder totp status
              repairminder totp disable --code 123456
            """,
        subcommands: [Setup.self, Status.self, Disable.self])

    struct Setup: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.staffAuth.totpSetup, Routes.staffAuth.totpVerifySetup]
        static let configuration = CommandConfiguration(
            abstract: "Enrol an authenticator app: shows the secret (and a QR code if qrencode is installed), then asks for a code.",
            discussion: """
                Without a terminal, the confirming code is read from standard input. Prints the \
                10 recovery codes once.

                EXAMPLES:
                  repairminder totp setup
                """)

        @OptionGroup var connection: ServerOptions

        func run() async throws {
            let context = try ClientContext(server: connection.server)
            try await context.run {
                let setup = try await context.api.send(Routes.staffAuth.totpSetup)
                say("Add this to your authenticator app:")
                say("  \(setup.otpauthUrl)")
                say("Secret (type it if you cannot scan): \(grouped(setup.secret))")
                showQRCode(setup.otpauthUrl)
                guard let code = Terminal.ask("Code shown by the app: ")?.trimmingCharacters(in: .whitespaces), !code.isEmpty else {
                    throw ClientInputError("a code from the app is required to finish setup")
                }
                let enabled = try await context.api.send(Routes.staffAuth.totpVerifySetup, TOTPCodeRequest(code: code))
                say("Authenticator app enabled. Recovery codes (each works once; keep them safe):")
                for recovery in enabled.recoveryCodes { say("  \(recovery)") }
                // The shop required it (docs/API.md §13.3): a refresh now lifts the restriction,
                // so the next command has full access without signing in again.
                if context.api.enrolmentStatus.requirement != nil { _ = try? await context.api.refreshSession() }
            }
        }

        private func grouped(_ secret: String) -> String {
            stride(from: 0, to: secret.count, by: 4).map { offset in
                let start = secret.index(secret.startIndex, offsetBy: offset)
                return String(secret[start..<(secret.index(start, offsetBy: 4, limitedBy: secret.endIndex) ?? secret.endIndex)])
            }.joined(separator: " ")
        }

        /// Renders the URL as a terminal QR code with `qrencode`, when it is installed.
        private func showQRCode(_ url: String) {
            guard Terminal.isInteractive else { return }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["qrencode", "-t", "ansiutf8", url]
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return }
            process.waitUntilExit()
        }
    }

    struct Status: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.staffAuth.totpStatus]
        static let configuration = CommandConfiguration(
            abstract: "Show whether an authenticator app is enabled.",
            discussion: """
                EXAMPLES:
                  repairminder totp status
                """)
        @OptionGroup var connection: ServerOptions

        func run() async throws {
            let context = try ClientContext(server: connection.server)
            try await context.run {
                let status = try await context.api.send(Routes.staffAuth.totpStatus)
                say(status.enabled ? "enabled, \(status.recoveryCodesRemaining) recovery codes left" : "not enabled")
            }
        }
    }

    struct Disable: AsyncParsableCommand, SendsRoutes {
        static let sends: [any ErasableRoute] = [Routes.staffAuth.totpDisable]
        static let configuration = CommandConfiguration(
            abstract: "Turn the authenticator app off with a current code or a recovery code.",
            discussion: """
                EXAMPLES:
                  repairminder totp disable
                  repairminder totp disable --code 123456
                  repairminder totp disable --code 7KQ2M9XD
                """)
        @OptionGroup var connection: ServerOptions
        @Option(help: "A current code or a recovery code (asked for when missing).") var code: String?

        func run() async throws {
            let context = try ClientContext(server: connection.server)
            try await context.run {
                guard let code = code ?? Terminal.ask("Code from the app or a recovery code: ")?.trimmingCharacters(in: .whitespaces),
                    !code.isEmpty
                else { throw ClientInputError("a code is required (use --code)") }
                _ = try await context.api.send(Routes.staffAuth.totpDisable, TOTPCodeRequest(code: code))
                say("Authenticator app disabled.")
            }
        }
    }
}
