/// A control that initiates an action.
@MainActor @preconcurrency public struct Button<Label: View>: View {
    @preconcurrency nonisolated public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) { standIn() }
    @preconcurrency nonisolated public init(role: ButtonRole?, action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {
        standIn()
    }
    public typealias Body = Never
    public var body: Never { standIn() }
}

extension Button where Label == Text {
    @preconcurrency nonisolated public init(_ titleKey: LocalizedStringKey, action: @escaping @MainActor () -> Void) { standIn() }
    @_disfavoredOverload @preconcurrency nonisolated public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {
        standIn()
    }
    @preconcurrency nonisolated public init(_ titleKey: LocalizedStringKey, role: ButtonRole?, action: @escaping @MainActor () -> Void) {
        standIn()
    }
    @_disfavoredOverload @preconcurrency nonisolated public init<S: StringProtocol>(
        _ title: S, role: ButtonRole?, action: @escaping @MainActor () -> Void
    ) { standIn() }
}

/// A value that describes the purpose of a button.
public struct ButtonRole: Equatable, Sendable {
    public static let destructive = ButtonRole()
    public static let cancel = ButtonRole()
    private init() {}
}

/// A control that toggles between on and off states.
@MainActor @preconcurrency public struct Toggle<Label: View>: View {
    public typealias Body = Never
    public var body: Never { standIn() }
}

extension Toggle where Label == Text {
    nonisolated public init(_ titleKey: LocalizedStringKey, isOn: Binding<Bool>) { standIn() }
    @_disfavoredOverload nonisolated public init<S: StringProtocol>(_ title: S, isOn: Binding<Bool>) { standIn() }
}

/// A control for selecting from a set of mutually exclusive values.
@MainActor @preconcurrency public struct Picker<Label: View, SelectionValue: Hashable, Content: View>: View {
    public typealias Body = Never
    public var body: Never { standIn() }
}

extension Picker where Label == Text {
    nonisolated public init(_ titleKey: LocalizedStringKey, selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content) {
        standIn()
    }
}

/// A control that displays an editable text interface.
@MainActor @preconcurrency public struct TextField<Label: View>: View {
    public typealias Body = Never
    public var body: Never { standIn() }
}

extension TextField where Label == Text {
    nonisolated public init(_ titleKey: LocalizedStringKey, text: Binding<String>) { standIn() }
    @_disfavoredOverload nonisolated public init<S: StringProtocol>(_ title: S, text: Binding<String>) { standIn() }
}

/// A control into which people securely enter private text.
@MainActor @preconcurrency public struct SecureField<Label: View>: View {
    public typealias Body = Never
    public var body: Never { standIn() }
}

extension SecureField where Label == Text {
    nonisolated public init(_ titleKey: LocalizedStringKey, text: Binding<String>) { standIn() }
    @_disfavoredOverload nonisolated public init<S: StringProtocol>(_ title: S, text: Binding<String>) { standIn() }
}

/// A view that shows the progress toward completion of a task.
@MainActor @preconcurrency public struct ProgressView<Label: View, CurrentValueLabel: View>: View {
    public typealias Body = Never
    public var body: Never { standIn() }
}

extension ProgressView where Label == EmptyView, CurrentValueLabel == EmptyView {
    nonisolated public init() { standIn() }
}

extension ProgressView where Label == Text, CurrentValueLabel == EmptyView {
    nonisolated public init(_ titleKey: LocalizedStringKey) { standIn() }
    @_disfavoredOverload nonisolated public init<S: StringProtocol>(_ title: S) { standIn() }
}

/// A standard label for user interface items, consisting of an icon with a title.
@MainActor @preconcurrency public struct Label<Title: View, Icon: View>: View {
    public typealias Body = Never
    public var body: Never { standIn() }
}

extension Label where Title == Text, Icon == Image {
    nonisolated public init(_ titleKey: LocalizedStringKey, systemImage name: String) { standIn() }
    @_disfavoredOverload nonisolated public init<S: StringProtocol>(_ title: S, systemImage name: String) { standIn() }
}

/// A view that displays an image.
@frozen public struct Image: Equatable, Sendable, View {
    nonisolated public init(systemName: String) { standIn() }
    /// Sets the mode by which SwiftUI resizes an image to fit its space.
    nonisolated public func resizable(capInsets: EdgeInsets = EdgeInsets(), resizingMode: Image.ResizingMode = .stretch) -> Image {
        standIn()
    }
    /// The modes that SwiftUI uses to resize an image to fit within its containing view.
    public enum ResizingMode: Hashable, Sendable { case tile, stretch }
    public typealias Body = Never
    public var body: Never { standIn() }
}

/// A view that asynchronously loads and displays an image.
@MainActor @preconcurrency public struct AsyncImage<Content: View>: View {
    nonisolated public init<I: View, P: View>(
        url: URL?, scale: CGFloat = 1, @ViewBuilder content: @escaping (Image) -> I, @ViewBuilder placeholder: @escaping () -> P
    ) where Content == _ConditionalContent<I, P> { standIn() }
    public typealias Body = Never
    public var body: Never { standIn() }
}

/// A control for navigating to a destination view (in a `NavigationStack`).
@MainActor @preconcurrency public struct NavigationLink<Label: View, Destination: View>: View {
    public typealias Body = Never
    public var body: Never { standIn() }
}

extension NavigationLink {
    nonisolated public init(@ViewBuilder destination: () -> Destination, @ViewBuilder label: () -> Label) { standIn() }
}

extension NavigationLink where Label == Text {
    nonisolated public init(_ titleKey: LocalizedStringKey, @ViewBuilder destination: () -> Destination) { standIn() }
    @_disfavoredOverload nonisolated public init<S: StringProtocol>(_ title: S, @ViewBuilder destination: () -> Destination) { standIn() }
}

/// A control that navigates to a URL: the system opens it (an `otpauth://` URL opens the
/// authenticator app that handles it).
@MainActor @preconcurrency public struct Link<Label: View>: View {
    public typealias Body = Never
    public var body: Never { standIn() }
}

extension Link {
    nonisolated public init(destination: URL, @ViewBuilder label: () -> Label) { standIn() }
}

extension Link where Label == Text {
    nonisolated public init(_ titleKey: LocalizedStringKey, destination: URL) { standIn() }
    @_disfavoredOverload nonisolated public init<S: StringProtocol>(_ title: S, destination: URL) { standIn() }
}

/// A control that performs increment and decrement actions.
@MainActor @preconcurrency public struct Stepper<Label: View>: View {
    public typealias Body = Never
    public var body: Never { standIn() }
}

extension Stepper where Label == Text {
    nonisolated public init<V: Strideable>(
        _ titleKey: LocalizedStringKey, value: Binding<V>, in bounds: ClosedRange<V>, step: V.Stride = 1,
        onEditingChanged: @escaping (Bool) -> Void = { _ in }
    ) { standIn() }
    @_disfavoredOverload nonisolated public init<S: StringProtocol, V: Strideable>(
        _ title: S, value: Binding<V>, in bounds: ClosedRange<V>, step: V.Stride = 1, onEditingChanged: @escaping (Bool) -> Void = { _ in }
    ) { standIn() }
}
