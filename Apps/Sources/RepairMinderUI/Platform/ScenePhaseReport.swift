#if canImport(SwiftUI)
import RepairMinderKit
import SwiftUI

extension AppScenePhase {
    /// SwiftUI's phase as the SDK's. `.inactive` stays inactive, as Apple documents it (visible,
    /// not interactive for a moment: a Face ID or passkey sheet, a notification prompt, Control
    /// Centre): the SDK then neither stops refreshing nor starts the lock's clock. Only
    /// `.background` is away.
    public init(_ phase: ScenePhase) {
        switch phase {
        case .active: self = .active
        case .inactive: self = .inactive
        case .background: self = .background
        @unknown default: self = .inactive
        }
    }
}
#endif
