import RepairMinderModels

/// A command that calls the API: the routes of the table it sends. `RouteCoverageTests` reads
/// them to name every served route that no command sends, so a new endpoint without its command
/// fails a test by name (docs/architecture.md, "Adding an endpoint").
protocol SendsRoutes {
    static var sends: [any ErasableRoute] { get }
}
