import ArgumentParser

@main
struct RepairMinderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repairminder",
        abstract: "The Repair Minder auth server and its tools.",
        discussion: """
            Start a development server with demo accounts:   repairminder serve --demo
            Read the sign-in codes it emails:                repairminder outbox
            Every setting is a flag with a REPAIRMINDER_* environment twin (see `repairminder serve --help`).
            """,
        subcommands: [ServeCommand.self, MigrateCommand.self, SeedCommand.self, OutboxCommand.self]
    )
}
