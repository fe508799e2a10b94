import ArgumentParser
import Foundation
import RepairMinderServer

/// Shows the settings `serve` would run with, and where each came from.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show the effective settings (secrets redacted) and where each came from.",
        usage: "repairminder config [--markdown] [--config <file>] [<setting> ...]",
        discussion: """
            Give it what you give serve: the same flags, environment and config file. It prints \
            every setting's value and its source (a flag, a REPAIRMINDER_* variable, the config \
            file, a secret's file, or the default), then checks them as serve would: exit status 1 \
            and an error line if serve would refuse them.

            EXAMPLES:
              repairminder config
              repairminder config --config /etc/repairminder.yaml --env production

            \(SettingsArguments.help(for: "config"))
            """
    )

    @Flag(help: "Print docs/configuration.md's table of every setting instead.")
    var markdown = false

    @Flag(help: .hidden) var demo = false
    @Flag(help: .hidden) var verbose = false

    @OptionGroup var settingsArguments: SettingsArguments

    func run() throws {
        if markdown {
            say(SettingsHelp.markdownTable())
            return
        }
        let loaded = try settingsArguments.load(for: "config")
        var origins = loaded.origins
        // serve's --verbose, shown as serve applies it.
        if verbose, !settingsArguments.namesOnTheCommandLine.contains("log-level") {
            origins["log-level"] = .init(source: "--verbose", shown: "debug")
        }
        let declarations = ServerSettings.declarations
        let rows = declarations.map { setting in
            let origin = origins[setting.key]
            // A default that is a rule ("smtp with --smtp-url, else outbox") shows what it comes to.
            let value = origin?.shown ?? Self.resolvedDefault(setting.key, of: loaded.settings) ?? setting.defaultDescription
            return (setting.key, value, origin?.source ?? "default")
        }
        let keyWidth = rows.map(\.0.count).max() ?? 0
        let valueWidth = min(rows.map(\.1.count).max() ?? 0, 40)
        say("setting".padding(toLength: keyWidth, withPad: " ", startingAt: 0) + "  "
            + "value".padding(toLength: valueWidth, withPad: " ", startingAt: 0) + "  from")
        for (key, value, source) in rows {
            let shownValue = value.count > valueWidth ? value : value.padding(toLength: valueWidth, withPad: " ", startingAt: 0)
            say(key.padding(toLength: keyWidth, withPad: " ", startingAt: 0) + "  " + shownValue + "  " + source)
        }
        _ = try SettingsArguments.validated(loaded.settings)
        say("\nserve would start with these settings.")
    }

    /// The value in effect of a setting left at a default that depends on others (nil: the
    /// default is a plain value, shown as declared). Secrets are never shown, only where they are.
    static func resolvedDefault(_ key: String, of settings: ServerSettings) -> String? {
        let dataDirectory = URL(fileURLWithPath: settings.dataDirectory)
        switch key {
        case "database-url":
            guard case .sqlite(let path)? = try? settings.databaseLocation() else { return nil }
            return path
        case "signing-keys": return settings.signingKeysPath
        case "encryption-key": return "generated: " + dataDirectory.appendingPathComponent("encryption-key").path
        case "jwt-secret": return settings.jwtAlgorithm == .hs256 ? "generated: " + dataDirectory.appendingPathComponent("jwt-secret").path : "unused (\(settings.jwtAlgorithm.rawValue))"
        case "public-url": return settings.serverURL
        case "webauthn-rp-id": return settings.relyingPartyID
        case "webauthn-origins": return settings.relyingPartyOrigins.joined(separator: ",")
        case "mail-transport": return settings.effectiveMailTransport.rawValue
        default: return nil
        }
    }
}
