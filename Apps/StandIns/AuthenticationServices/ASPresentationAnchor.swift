import UIKit

/// A platform-specific type that serves as the presentation anchor (a window on iOS).
public typealias ASPresentationAnchor = UIWindow
