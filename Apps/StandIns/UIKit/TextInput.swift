// Declarations as in UIKit.framework's UITextInputTraits.h and UITextContentType (iOS 18 SDK),
// imported to Swift, and Apple's documentation pages "UITextContentType" and "UIKeyboardType".

/// The semantic meaning for a text input area.
@available(iOS 10.0, *)
public struct UITextContentType: Hashable, Equatable, RawRepresentable, @unchecked Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    @available(iOS 11.0, *)
    public static let username = UITextContentType(rawValue: "username")
    @available(iOS 11.0, *)
    public static let password = UITextContentType(rawValue: "password")
    @available(iOS 12.0, *)
    public static let newPassword = UITextContentType(rawValue: "new-password")
    @available(iOS 12.0, *)
    public static let oneTimeCode = UITextContentType(rawValue: "one-time-code")
    public static let organizationName = UITextContentType(rawValue: "organization")
    public static let givenName = UITextContentType(rawValue: "given-name")
    public static let familyName = UITextContentType(rawValue: "family-name")
    public static let emailAddress = UITextContentType(rawValue: "email")
}

/// Specifies the type of keyboard to display for a text-based view.
@available(iOS 2.0, *)
public enum UIKeyboardType: Int, @unchecked Sendable {
    case `default`, asciiCapable, numbersAndPunctuation, URL, numberPad, phonePad, namePhonePad, emailAddress, decimalPad,
        twitter, webSearch, asciiCapableNumberPad
}
