#if canImport(UIKit)
import UIKit

/// Where the system's passkey sheet is shown: the key window of the scene the person is using
/// (foreground and active). A window made for the purpose has no scene and shows nothing.
public enum ForegroundWindow {
    /// The key window of the first foreground-active scene in `scenes`; `nil` when none is
    /// (the app is not in front, so the system could not ask the person anyway).
    public static func keyWindow<Scene, Window>(
        among scenes: some Sequence<Scene>, isForegroundActive: (Scene) -> Bool, keyWindow: (Scene) -> Window?
    ) -> Window? {
        scenes.lazy.filter(isForegroundActive).compactMap(keyWindow).first
    }
}

extension ForegroundWindow {
    /// The key window of the app's foreground-active window scene, if it has one.
    @MainActor public static func keyWindow() -> UIWindow? {
        keyWindow(
            among: UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene },
            isForegroundActive: { $0.activationState == .foregroundActive }, keyWindow: { $0.keyWindow })
    }
}
#endif
