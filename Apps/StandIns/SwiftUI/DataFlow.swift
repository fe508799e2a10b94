/// An interface for a stored variable that updates an external property of a view.
public protocol DynamicProperty {}

/// A property wrapper type that can read and write a value managed by SwiftUI.
@frozen @propertyWrapper public struct State<Value>: DynamicProperty {
    nonisolated public init(wrappedValue value: Value) { standIn() }
    nonisolated public init(initialValue value: Value) { standIn() }
    public var wrappedValue: Value { get { standIn() } nonmutating set { standIn() } }
    public var projectedValue: Binding<Value> { standIn() }
}

extension State: Sendable where Value: Sendable {}

/// A property wrapper type that can read and write a value owned by a source of truth.
@frozen @propertyWrapper @dynamicMemberLookup public struct Binding<Value> {
    public var wrappedValue: Value { get { standIn() } nonmutating set { standIn() } }
    public var projectedValue: Binding<Value> { standIn() }
    public init(projectedValue: Binding<Value>) { standIn() }
    /// Creates a binding with closures that read and write the binding value.
    @preconcurrency public init(get: @escaping @isolated(any) @Sendable () -> Value, set: @escaping @isolated(any) @Sendable (Value) -> Void) {
        standIn()
    }
    /// Creates a binding with an immutable value.
    public static func constant(_ value: Value) -> Binding<Value> { standIn() }
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> { standIn() }
}

extension Binding: @unchecked Sendable where Value: Sendable {}

/// A property wrapper type that supports creating bindings to the mutable properties of
/// observable objects.
@dynamicMemberLookup @propertyWrapper public struct Bindable<Value> {
    private let object: Value?  // stands for Apple's storage (and keeps the implicit `init()` away)
    public var wrappedValue: Value { get { standIn() } set { standIn() } }
    public var projectedValue: Bindable<Value> { standIn() }
    public init(wrappedValue: Value) where Value: AnyObject, Value: Observable { standIn() }
    public init(_ wrappedValue: Value) where Value: AnyObject, Value: Observable { standIn() }
    public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<Value, Subject>) -> Binding<Subject> where Value: AnyObject {
        standIn()
    }
}


extension Bindable: Identifiable where Value: Identifiable {
    public var id: Value.ID { standIn() }
}

extension Bindable: DynamicProperty {}
extension Bindable: Sendable where Value: Sendable {}

/// A property wrapper type that can read and write a value that SwiftUI updates as the
/// placement of focus within the scene changes.
@frozen @propertyWrapper public struct FocusState<Value: Hashable>: DynamicProperty {
    /// A property wrapper type that can read and write a value that indicates the current
    /// focus location.
    @frozen public struct Binding {
        public var wrappedValue: Value { get { standIn() } nonmutating set { standIn() } }
        public var projectedValue: FocusState<Value>.Binding { standIn() }
    }
    public var wrappedValue: Value { get { standIn() } nonmutating set { standIn() } }
    public var projectedValue: FocusState<Value>.Binding { standIn() }
    public init() where Value == Bool { standIn() }
}

/// A property wrapper that reads a value from a view's environment.
@frozen @propertyWrapper public struct Environment<Value>: DynamicProperty {
    @inlinable public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { standIn() }
    @inlinable public var wrappedValue: Value { standIn() }
}

extension Environment: Sendable where Value: Sendable {}

/// A collection of environment values propagated through a view hierarchy.
public struct EnvironmentValues {
    /// An action that dismisses the current presentation.
    public var dismiss: DismissAction { standIn() }
    /// The current phase of the scene.
    public var scenePhase: ScenePhase { get { standIn() } set { standIn() } }
}

/// An action that dismisses a presentation.
@MainActor @preconcurrency public struct DismissAction {
    /// Dismisses the view if it is currently presented.
    public func callAsFunction() { standIn() }
}

/// An indication of a scene's operational state.
public enum ScenePhase: Comparable, Hashable, Sendable {
    case background, inactive, active
}

/// A dynamic property that scales a numeric value.
@propertyWrapper public struct ScaledMetric<Value: BinaryFloatingPoint>: DynamicProperty {
    public init(wrappedValue: Value, relativeTo textStyle: Font.TextStyle) { standIn() }
    public init(wrappedValue: Value) { standIn() }
    public var wrappedValue: Value { standIn() }
}
