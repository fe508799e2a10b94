import UIKit

// The view modifiers the screens use, as Apple declares them: `nonisolated` methods of
// `View` (so they return `some View`), closures `@MainActor` or `@Sendable` where Apple's are.
extension View {
    nonisolated public func disabled(_ disabled: Bool) -> some View { standIn() }
    nonisolated public func font(_ font: Font?) -> some View { standIn() }
    nonisolated public func foregroundStyle<S: ShapeStyle>(_ style: S) -> some View { standIn() }
    nonisolated public func multilineTextAlignment(_ alignment: TextAlignment) -> some View { standIn() }
    nonisolated public func padding(_ edges: Edge.Set = .all, _ length: CGFloat? = nil) -> some View { standIn() }
    nonisolated public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center) -> some View { standIn() }
    nonisolated public func frame(
        minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil, minHeight: CGFloat? = nil,
        idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil, alignment: Alignment = .center
    ) -> some View { standIn() }
    nonisolated public func scaledToFit() -> some View { standIn() }
    nonisolated public func clipShape<S: Shape>(_ shape: S, style: FillStyle = FillStyle()) -> some View { standIn() }
    nonisolated public func background<S: ShapeStyle, T: Shape>(_ style: S, in shape: T, fillStyle: FillStyle = FillStyle()) -> some View {
        standIn()
    }
    nonisolated public func overlay<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> some View { standIn() }
    nonisolated public func controlSize(_ controlSize: ControlSize) -> some View { standIn() }
    nonisolated public func buttonStyle<S: PrimitiveButtonStyle>(_ style: S) -> some View { standIn() }
    nonisolated public func pickerStyle<S: PickerStyle>(_ style: S) -> some View { standIn() }
    nonisolated public func animation<V: Equatable>(_ animation: Animation?, value: V) -> some View { standIn() }
    nonisolated public func tag<V: Hashable>(_ tag: V, includeOptional: Bool = true) -> some View { standIn() }

    // Text input
    nonisolated public func textContentType(_ textContentType: UITextContentType?) -> some View { standIn() }
    nonisolated public func keyboardType(_ type: UIKeyboardType) -> some View { standIn() }
    nonisolated public func textInputAutocapitalization(_ autocapitalization: TextInputAutocapitalization?) -> some View { standIn() }
    nonisolated public func autocorrectionDisabled(_ disable: Bool = true) -> some View { standIn() }
    nonisolated public func focused(_ condition: FocusState<Bool>.Binding) -> some View { standIn() }

    // Accessibility
    nonisolated public func accessibilityLabel(_ label: Text) -> some View { standIn() }
    nonisolated public func accessibilityLabel(_ labelKey: LocalizedStringKey) -> some View { standIn() }
    @_disfavoredOverload nonisolated public func accessibilityLabel<S: StringProtocol>(_ label: S) -> some View { standIn() }
    nonisolated public func accessibilityHint(_ hint: Text) -> some View { standIn() }
    nonisolated public func accessibilityHint(_ hintKey: LocalizedStringKey) -> some View { standIn() }
    @_disfavoredOverload nonisolated public func accessibilityHint<S: StringProtocol>(_ hint: S) -> some View { standIn() }
    nonisolated public func accessibilityHidden(_ hidden: Bool) -> some View { standIn() }

    // Events
    nonisolated public func onAppear(perform action: (() -> Void)? = nil) -> some View { standIn() }
    nonisolated public func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping (_ oldValue: V, _ newValue: V) -> Void)
        -> some View
    { standIn() }
    nonisolated public func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping () -> Void) -> some View {
        standIn()
    }
    nonisolated public func onSubmit(of triggers: SubmitTriggers = .text, _ action: @escaping (() -> Void)) -> some View { standIn() }
    nonisolated public func onReceive<P: Publisher>(_ publisher: P, perform action: @escaping (P.Output) -> Void) -> some View
    where P.Failure == Never { standIn() }
    // `@_inheritActorContext` is in Apple's interface though not on the documentation page: the
    // closure runs on the view's actor, as `Task { }` does.
    nonisolated public func task(priority: TaskPriority = .userInitiated, @_inheritActorContext _ action: @escaping @Sendable () async -> Void)
        -> some View
    { standIn() }
    nonisolated public func refreshable(action: @escaping @Sendable () async -> Void) -> some View { standIn() }
    nonisolated public func swipeActions<T: View>(edge: HorizontalEdge = .trailing, allowsFullSwipe: Bool = true, @ViewBuilder content: () -> T)
        -> some View
    { standIn() }

    /// Apple: `func onOpenURL(perform action: @escaping (URL) -> ()) -> some View` (iOS 14); a
    /// universal link reaches it too.
    nonisolated public func onOpenURL(perform action: @escaping (URL) -> ()) -> some View { standIn() }

    // Navigation and presentation
    nonisolated public func navigationTitle(_ titleKey: LocalizedStringKey) -> some View { standIn() }
    @_disfavoredOverload nonisolated public func navigationTitle<S: StringProtocol>(_ title: S) -> some View { standIn() }
    nonisolated public func navigationDestination<V: View>(isPresented: Binding<Bool>, @ViewBuilder destination: () -> V) -> some View {
        standIn()
    }
    nonisolated public func tabItem<V: View>(@ViewBuilder _ label: () -> V) -> some View { standIn() }
    nonisolated public func toolbar<Content: ToolbarContent>(@ToolbarContentBuilder content: () -> Content) -> some View { standIn() }
    nonisolated public func sheet<Content: View>(
        isPresented: Binding<Bool>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping () -> Content
    ) -> some View { standIn() }
    nonisolated public func interactiveDismissDisabled(_ isDisabled: Bool = true) -> some View { standIn() }
    nonisolated public func alert<A: View, M: View, T>(
        _ titleKey: LocalizedStringKey, isPresented: Binding<Bool>, presenting data: T?, @ViewBuilder actions: (T) -> A,
        @ViewBuilder message: (T) -> M
    ) -> some View { standIn() }
}
