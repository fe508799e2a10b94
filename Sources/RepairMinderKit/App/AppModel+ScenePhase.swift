/// Where the app's scene stands, as SwiftUI's `ScenePhase` says (the SDK does not import SwiftUI).
public enum AppScenePhase: Sendable, Equatable {
    /// In the foreground and interactive.
    case active
    /// Visible but not interactive for a moment: Control Centre, a system alert, the app switcher.
    case inactive
    /// Not visible.
    case background
}

/// The session follows the app's lifecycle inside the SDK: the app only reports its scene phase.
///
/// ```swift
/// .onChange(of: scenePhase) { _, phase in
///     switch phase {
///     case .active: app.sceneBecameActive()
///     case .background: app.sceneMovedToBackground()
///     default: break
///     }
/// }
/// ```
extension AppModel {
    /// Reports the scene's phase. `.inactive` changes nothing: a glance at Control Centre
    /// neither stops the refresh nor starts the lock's background clock.
    public func scenePhaseChanged(to phase: AppScenePhase) {
        switch phase {
        case .active: sceneBecameActive()
        case .background: sceneMovedToBackground()
        case .inactive: break
        }
    }

    /// The scene is in the foreground: a staff access token within a minute of expiry is
    /// refreshed at once, and again a minute before each expiry while the scene stays active;
    /// an `.offline` session is checked again, the lock asks if the app was away long enough,
    /// and push registration is retried (`appBecameActive()`).
    public func sceneBecameActive() { appBecameActive() }

    /// The scene left the foreground: no refresh in the background, and the lock's clock starts
    /// (`appWillResignActive()`).
    public func sceneMovedToBackground() { appWillResignActive() }
}
