/// A container for grouping controls used for data entry.
@MainActor @preconcurrency public struct Form<Content: View>: View {
    nonisolated public init(@ViewBuilder content: () -> Content) { standIn() }
    public typealias Body = Never
    public var body: Never { standIn() }
}

/// A container that presents rows of data arranged in a single column.
@MainActor @preconcurrency public struct List<SelectionValue: Hashable, Content: View>: View {
    public typealias Body = Never
    public var body: Never { standIn() }
}

extension List where SelectionValue == Never {
    nonisolated public init(@ViewBuilder content: () -> Content) { standIn() }
}

/// A container view that you can use to add hierarchy within certain views.
@MainActor @preconcurrency public struct Section<Parent, Content, Footer> {}

extension Section: View where Parent: View, Content: View, Footer: View {
    nonisolated public init(@ViewBuilder content: () -> Content, @ViewBuilder header: () -> Parent, @ViewBuilder footer: () -> Footer) {
        standIn()
    }
    public typealias Body = Never
    public var body: Never { standIn() }
}

extension Section where Parent: View, Content: View, Footer == EmptyView {
    nonisolated public init(@ViewBuilder content: () -> Content, @ViewBuilder header: () -> Parent) { standIn() }
}

extension Section where Parent == EmptyView, Content: View, Footer: View {
    nonisolated public init(@ViewBuilder content: () -> Content, @ViewBuilder footer: () -> Footer) { standIn() }
}

extension Section where Parent == EmptyView, Content: View, Footer == EmptyView {
    nonisolated public init(@ViewBuilder content: () -> Content) { standIn() }
}

extension Section where Parent == Text, Content: View, Footer == EmptyView {
    nonisolated public init(_ titleKey: LocalizedStringKey, @ViewBuilder content: () -> Content) { standIn() }
    @_disfavoredOverload nonisolated public init<S: StringProtocol>(_ title: S, @ViewBuilder content: () -> Content) { standIn() }
}

/// A list of the views in a navigation stack's path.
public struct NavigationPath: Equatable {}

/// A view that displays a root view and enables you to present additional views over the root view.
@MainActor @preconcurrency public struct NavigationStack<Data, Root: View>: View {
    nonisolated public init(@ViewBuilder root: () -> Root) where Data == NavigationPath { standIn() }
    public typealias Body = Never
    public var body: Never { standIn() }
}

/// A view that switches between multiple child views using interactive user interface elements.
@MainActor @preconcurrency public struct TabView<SelectionValue: Hashable, Content: View>: View {
    nonisolated public init(selection: Binding<SelectionValue>?, @ViewBuilder content: () -> Content) { standIn() }
    public typealias Body = Never
    public var body: Never { standIn() }
}

/// A structure that computes views on demand from an underlying collection of identified data.
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content> {}

extension ForEach: View where Content: View {
    public typealias Body = Never
    public var body: Never { standIn() }
}

extension ForEach where ID == Data.Element.ID, Content: View, Data.Element: Identifiable {
    nonisolated public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) { standIn() }
}

extension ForEach where Content: View {
    nonisolated public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        standIn()
    }
}

/// A type that collects multiple instances of a content type into a single unit.
@frozen public struct Group<Content> {}

extension Group: View where Content: View {
    nonisolated public init(@ViewBuilder content: () -> Content) { standIn() }
    public typealias Body = Never
    public var body: Never { standIn() }
}

/// A view that arranges its subviews in a vertical line.
@frozen public struct VStack<Content: View>: View {
    nonisolated public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        standIn()
    }
    public typealias Body = Never
    public var body: Never { standIn() }
}

/// A view that arranges its subviews in a horizontal line.
@frozen public struct HStack<Content: View>: View {
    nonisolated public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        standIn()
    }
    public typealias Body = Never
    public var body: Never { standIn() }
}

/// A flexible space that expands along the major axis of its containing stack layout.
@frozen public struct Spacer: View {
    nonisolated public init(minLength: CGFloat? = nil) { standIn() }
    public typealias Body = Never
    public var body: Never { standIn() }
}

/// An interface, consisting of a label and additional content, that you display when the
/// content of your app is unavailable to users.
@MainActor @preconcurrency public struct ContentUnavailableView<Label: View, Description: View, Actions: View>: View {
    nonisolated public init(
        @ViewBuilder label: () -> Label, @ViewBuilder description: () -> Description, @ViewBuilder actions: () -> Actions
    ) { standIn() }
    public typealias Body = Never
    public var body: Never { standIn() }
}

extension ContentUnavailableView where Label == SwiftUI.Label<Text, Image>, Description == Text?, Actions == EmptyView {
    nonisolated public init(_ title: LocalizedStringKey, systemImage name: String, description: Text? = nil) { standIn() }
    @_disfavoredOverload nonisolated public init<S: StringProtocol>(_ title: S, systemImage name: String, description: Text? = nil) {
        standIn()
    }
}
