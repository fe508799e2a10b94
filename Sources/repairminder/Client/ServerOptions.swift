import ArgumentParser

/// `--server`, which every client command takes: declared once, so its help (and the default
/// it states) is the same everywhere. `ClientContext` chooses the URL.
struct ServerOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The server's URL, e.g. https://api.example.com; remembered for later commands. (default: the last one given, else \(ClientContext.defaultServer))",
            valueName: "url"))
    var server: String?
}
