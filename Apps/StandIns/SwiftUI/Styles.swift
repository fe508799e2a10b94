/// A color or pattern to use when rendering a shape.
public protocol ShapeStyle: Sendable {}

/// A representation of a color that adapts to a given context.
@frozen public struct Color: Hashable, ShapeStyle, View {
    public static var clear: Color { standIn() }
    public static var red: Color { standIn() }
    public typealias Body = Never
    public var body: Never { standIn() }
}

extension ShapeStyle where Self == Color {
    public static var red: Color { standIn() }
}

/// A shape style that maps to one of the numbered content styles.
@frozen public struct HierarchicalShapeStyle: ShapeStyle {}

extension ShapeStyle where Self == HierarchicalShapeStyle {
    public static var primary: HierarchicalShapeStyle { standIn() }
    public static var secondary: HierarchicalShapeStyle { standIn() }
}

/// A style that reflects the current tint color.
@frozen public struct TintShapeStyle: ShapeStyle {}

extension ShapeStyle where Self == TintShapeStyle {
    public static var tint: TintShapeStyle { standIn() }
}

/// A background material type.
@frozen public struct Material: ShapeStyle {}

extension ShapeStyle where Self == Material {
    public static var thinMaterial: Material { standIn() }
}

/// A 2D shape that you can use when drawing a view.
public protocol Shape: Sendable, View {}

/// Defines the shape of a rounded rectangle's corners.
public enum RoundedCornerStyle: Equatable, Hashable, Sendable { case circular, continuous }

/// A rectangular shape with rounded corners, aligned inside the frame of the view containing it.
@frozen public struct RoundedRectangle: Shape {
    nonisolated public init(cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) { standIn() }
    public typealias Body = Never
    public var body: Never { standIn() }
}

extension Shape where Self == RoundedRectangle {
    /// A rectangular shape with rounded corners, aligned inside the frame of the view containing it.
    public static func rect(cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) -> Self { standIn() }
}

/// A style for rasterizing vector shapes.
@frozen public struct FillStyle: Equatable, Sendable {
    public init(eoFill: Bool = false, antialiased: Bool = true) { standIn() }
}

/// The inset distances for the sides of a rectangle.
@frozen public struct EdgeInsets: Equatable, Sendable {
    public init() { standIn() }
}

/// An enumeration to indicate one edge of a rectangle.
@frozen public enum Edge: Int8, CaseIterable, Sendable {
    case top, leading, bottom, trailing
    /// An efficient set of edges.
    @frozen public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public static let all = Edge.Set(rawValue: 15)
    }
}

/// An edge on the horizontal axis.
@frozen public enum HorizontalEdge: Int8, CaseIterable, Sendable { case leading, trailing }

/// An alignment position along the horizontal axis.
@frozen public struct HorizontalAlignment: Equatable, Sendable {
    public static var leading: HorizontalAlignment { standIn() }
    public static var center: HorizontalAlignment { standIn() }
    public static var trailing: HorizontalAlignment { standIn() }
}

/// An alignment position along the vertical axis.
@frozen public struct VerticalAlignment: Equatable, Sendable {
    public static var top: VerticalAlignment { standIn() }
    public static var center: VerticalAlignment { standIn() }
    public static var bottom: VerticalAlignment { standIn() }
}

/// An alignment in both axes.
@frozen public struct Alignment: Equatable, Sendable {
    public static var center: Alignment { standIn() }
    public static var top: Alignment { standIn() }
    public static var bottom: Alignment { standIn() }
    public static var leading: Alignment { standIn() }
    public static var trailing: Alignment { standIn() }
}

/// The size classes, like regular or small, that you can apply to controls within a view.
public enum ControlSize: CaseIterable, Hashable, Sendable { case mini, small, regular, large, extraLarge }

/// The visual timing curve applied to an animation.
@frozen public struct Animation: Equatable, Sendable {
    public static var `default`: Animation { standIn() }
}

/// A type that specifies the appearance and interaction of all buttons within a view hierarchy.
public protocol PrimitiveButtonStyle {}

/// A button style that applies standard border artwork based on the button's context.
public struct BorderedButtonStyle: PrimitiveButtonStyle {}

/// A button style that applies standard border prominent artwork based on the button's context.
public struct BorderedProminentButtonStyle: PrimitiveButtonStyle {}

extension PrimitiveButtonStyle where Self == BorderedButtonStyle {
    public static var bordered: BorderedButtonStyle { standIn() }
}

extension PrimitiveButtonStyle where Self == BorderedProminentButtonStyle {
    public static var borderedProminent: BorderedProminentButtonStyle { standIn() }
}

/// A type that specifies the appearance and interaction of all pickers within a view hierarchy.
public protocol PickerStyle {}

/// A picker style that presents the options in a segmented control.
public struct SegmentedPickerStyle: PickerStyle {}

extension PickerStyle where Self == SegmentedPickerStyle {
    public static var segmented: SegmentedPickerStyle { standIn() }
}
