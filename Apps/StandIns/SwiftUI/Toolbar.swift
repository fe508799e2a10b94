/// Conforming types represent items that can be placed in various locations in a toolbar.
@MainActor @preconcurrency public protocol ToolbarContent {
    associatedtype Body: ToolbarContent
    @ToolbarContentBuilder var body: Self.Body { get }
}

extension Never: ToolbarContent {}

/// Constructs a toolbar item set from multi-expression closures.
@resultBuilder public struct ToolbarContentBuilder {
    public static func buildExpression<Content: ToolbarContent>(_ content: Content) -> Content { content }
    public static func buildBlock<Content: ToolbarContent>(_ content: Content) -> Content { content }
}

/// A model that represents an item which can be placed in the toolbar or navigation bar.
@MainActor @preconcurrency public struct ToolbarItem<ID, Content: View>: ToolbarContent {
    public typealias Body = Never
    public var body: Never { standIn() }
}

extension ToolbarItem where ID == () {
    nonisolated public init(placement: ToolbarItemPlacement = .automatic, @ViewBuilder content: () -> Content) { standIn() }
}

/// A structure that defines the placement of a toolbar item.
public struct ToolbarItemPlacement: Sendable {
    public static var automatic: ToolbarItemPlacement { standIn() }
    public static var cancellationAction: ToolbarItemPlacement { standIn() }
    public static var confirmationAction: ToolbarItemPlacement { standIn() }
}
