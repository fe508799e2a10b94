/// The key for a localized string resource to use when displaying a string in a view.
@frozen public struct LocalizedStringKey: Equatable, ExpressibleByStringInterpolation, Sendable {
    public init(_ value: String) { standIn() }
    public init(stringLiteral value: String) { standIn() }
    public init(stringInterpolation: LocalizedStringKey.StringInterpolation) { standIn() }

    /// Represents the contents of a string literal with interpolations while it's being built.
    public struct StringInterpolation: StringInterpolationProtocol {
        public init(literalCapacity: Int, interpolationCount: Int) { standIn() }
        public mutating func appendLiteral(_ literal: String) { standIn() }
        public mutating func appendInterpolation(_ string: String) { standIn() }
        public mutating func appendInterpolation<Subject: CustomStringConvertible>(_ value: Subject) { standIn() }
    }
}

/// A view that displays one or more lines of read-only text.
@frozen public struct Text: Equatable, Sendable, View {
    nonisolated public init(_ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil) {
        standIn()
    }
    @_disfavoredOverload nonisolated public init<S: StringProtocol>(_ content: S) { standIn() }
    nonisolated public init(verbatim content: String) { standIn() }
    public typealias Body = Never
    public var body: Never { standIn() }
}

/// An environment-dependent font.
@frozen public struct Font: Hashable, Sendable {
    public static var largeTitle: Font { standIn() }
    public static var title: Font { standIn() }
    public static var title2: Font { standIn() }
    public static var headline: Font { standIn() }
    public static var body: Font { standIn() }
    public static var callout: Font { standIn() }
    public static var caption: Font { standIn() }
    /// Specifies a system font to use, along with the style, weight, and any design parameters you want applied to the text.
    public static func system(size: CGFloat, weight: Font.Weight? = nil, design: Font.Design? = nil) -> Font { standIn() }
    /// Adds bold styling to the font.
    public func bold() -> Font { standIn() }
    /// Returns a modified font that uses fixed-width digits, while leaving other characters proportionally spaced.
    public func monospacedDigit() -> Font { standIn() }

    /// A dynamic text style to use for fonts.
    public enum TextStyle: CaseIterable, Sendable {
        case largeTitle, title, title2, title3, headline, subheadline, body, callout, footnote, caption, caption2
    }
    /// A weight to use for fonts.
    @frozen public struct Weight: Hashable, Sendable {
        public static var regular: Font.Weight { standIn() }
        public static var bold: Font.Weight { standIn() }
    }
    /// A design to use for fonts.
    public enum Design: Hashable, Sendable { case `default`, serif, rounded, monospaced }
}

/// An alignment position for text along the horizontal axis.
@frozen public enum TextAlignment: Hashable, CaseIterable, Sendable { case leading, center, trailing }

/// How a text field capitalizes what is typed (iOS).
public struct TextInputAutocapitalization: Sendable {
    public static var never: TextInputAutocapitalization { standIn() }
    public static var words: TextInputAutocapitalization { standIn() }
    public static var sentences: TextInputAutocapitalization { standIn() }
    public static var characters: TextInputAutocapitalization { standIn() }
}

/// Triggers to use with the `onSubmit(of:_:)` modifier.
public struct SubmitTriggers: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let text = SubmitTriggers(rawValue: 1 << 0)
    public static let search = SubmitTriggers(rawValue: 1 << 1)
}
