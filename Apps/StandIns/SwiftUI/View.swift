/// A type that represents part of your app's user interface and provides modifiers that you
/// use to configure views.
@MainActor @preconcurrency public protocol View {
    /// The type of view representing the body of this view.
    associatedtype Body: View
    /// The content and behavior of the view.
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { standIn() }
}

/// A custom parameter attribute that constructs views from closures.
@resultBuilder public struct ViewBuilder {
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
        standIn()
    }
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildEither<TrueContent: View, FalseContent: View>(first: TrueContent) -> _ConditionalContent<TrueContent, FalseContent> {
        standIn()
    }
    public static func buildEither<TrueContent: View, FalseContent: View>(second: FalseContent) -> _ConditionalContent<TrueContent, FalseContent> {
        standIn()
    }
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { standIn() }
}

/// A view that doesn't contain any content.
@frozen public struct EmptyView: View {
    nonisolated public init() {}
    public typealias Body = Never
    public var body: Never { standIn() }
}

/// A View created from a swift tuple of View values.
@frozen public struct TupleView<T>: View {
    public var value: T { standIn() }
    nonisolated public init(_ value: T) { standIn() }
    public typealias Body = Never
    public var body: Never { standIn() }
}

/// View content that shows one of two possible children.
@frozen public struct _ConditionalContent<TrueContent: View, FalseContent: View>: View {
    public typealias Body = Never
    public var body: Never { standIn() }
}

extension Optional: View where Wrapped: View {
    public typealias Body = Never
    public var body: Never { standIn() }
}

/// A type-erased view.
@frozen public struct AnyView: View {
    nonisolated public init<V: View>(_ view: V) { standIn() }
    public typealias Body = Never
    public var body: Never { standIn() }
}
