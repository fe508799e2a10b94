/// Accessibility notifications a view posts (the Accessibility framework, re-exported by SwiftUI).
public enum AccessibilityNotification {
    /// A notification that an app posts when it needs to convey an announcement to the assistive technology.
    public struct Announcement: Sendable {
        public init(_ announcement: String) { standIn() }
        /// Posts the notification to the assistive technology.
        @MainActor public func post() { standIn() }
    }
}
