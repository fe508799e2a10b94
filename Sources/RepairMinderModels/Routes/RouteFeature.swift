/// A group of routes named for people (an OpenAPI tag): a struct whose stored properties are
/// its routes. The declarations are the list: `routes` reads them back by reflection, so a
/// route declared in a feature cannot be left out of the table, the document or the mounter's
/// start-up check.
public protocol RouteFeature: Sendable {
    /// The feature's name, as the document's tag.
    static var name: String { get }
}

extension RouteFeature {
    /// The feature's routes, in the order they are declared.
    public var routes: [AnyRoute] {
        Mirror(reflecting: self).children.map { child in
            // A feature holds routes and nothing else (`RouteTableTests` checks it): anything
            // else would be a declaration the table cannot see.
            guard let route = child.value as? any ErasableRoute else {
                preconditionFailure("\(Self.self).\(child.label ?? "?") is not a route")
            }
            return route.erased
        }
    }

    /// The feature's name (`Self.name`), for a value whose type is erased.
    public var name: String { Self.name }
}

/// A route that can be listed without its types: every `Route`.
public protocol ErasableRoute: Sendable {
    var erased: AnyRoute { get }
}

extension Route: ErasableRoute {}
