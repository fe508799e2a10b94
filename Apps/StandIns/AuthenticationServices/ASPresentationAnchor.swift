// Declarations as in AuthenticationServices.framework's ASFoundation.h (iOS 18 SDK) and
// Apple's documentation page "ASPresentationAnchor".
import UIKit

/// A platform-specific type that serves as the presentation anchor (a window on iOS).
@available(iOS 13.0, macOS 10.15, tvOS 13.0, *)
@available(watchOS, unavailable)
public typealias ASPresentationAnchor = UIWindow
