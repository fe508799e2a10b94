/// The semantic meaning for a text input area.
public struct UITextContentType: Hashable, Equatable, RawRepresentable, @unchecked Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let username = UITextContentType(rawValue: "username")
    public static let password = UITextContentType(rawValue: "password")
    public static let newPassword = UITextContentType(rawValue: "new-password")
    public static let oneTimeCode = UITextContentType(rawValue: "one-time-code")
    public static let organizationName = UITextContentType(rawValue: "organization")
    public static let givenName = UITextContentType(rawValue: "given-name")
    public static let familyName = UITextContentType(rawValue: "family-name")
    public static let emailAddress = UITextContentType(rawValue: "email")
}

/// Specifies the type of keyboard to display for a text-based view.
public enum UIKeyboardType: Int, @unchecked Sendable {
    case `default`, asciiCapable, numbersAndPunctuation, URL, numberPad, phonePad, namePhonePad, emailAddress, decimalPad,
        twitter, webSearch, asciiCapableNumberPad
}
