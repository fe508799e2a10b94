import Foundation

/// A route's path template, such as `/api/orders/{orderId}/items/{itemId}`: literal segments
/// and named parameters, each one whole segment.
public struct RoutePath: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// One `/`-separated piece of a path.
    public enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
    }

    public let segments: [Segment]

    /// Parses `{name}` segments as parameters; everything else is literal.
    public init(_ template: String) {
        segments = template.split(separator: "/").map { piece in
            if piece.hasPrefix("{"), piece.hasSuffix("}") { return .parameter(String(piece.dropFirst().dropLast())) }
            return .literal(String(piece))
        }
    }

    public init(stringLiteral value: String) { self.init(value) }

    /// The template as OpenAPI writes it: `/api/companies/{id}`.
    public var description: String {
        "/" + segments.map { segment in
            switch segment {
            case .literal(let text): text
            case .parameter(let name): "{\(name)}"
            }
        }.joined(separator: "/")
    }

    /// The parameter names, in order.
    public var parameterNames: [String] {
        segments.compactMap { if case .parameter(let name) = $0 { name } else { nil } }
    }

    /// The concrete path with `values` in place of the parameters, in order, each
    /// percent-escaped as one segment. Nil when the number of values is wrong.
    public func rendered(_ values: [String]) -> String? {
        guard values.count == parameterNames.count else { return nil }
        var remaining = values[...]
        let pieces = segments.map { segment -> String in
            switch segment {
            case .literal(let text): return text
            case .parameter:
                let value = remaining.removeFirst()
                return value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? value
            }
        }
        return "/" + pieces.joined(separator: "/")
    }

    /// The parameter values if `path` (already split into non-empty segments) fits the template.
    public func match(_ pathSegments: [Substring]) -> [String: String]? {
        guard pathSegments.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (segment, piece) in zip(segments, pathSegments) {
            switch segment {
            case .literal(let text): guard piece == text else { return nil }
            case .parameter(let name): values[name] = String(piece)
            }
        }
        return values
    }
}
