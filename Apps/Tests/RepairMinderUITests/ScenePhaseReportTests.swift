import RepairMinderKit
import RepairMinderUI
import SwiftUI
import Testing

/// The root view reports SwiftUI's scene phase as it is: a system prompt (`.inactive`) is not
/// the app going away (issue 52, item 5).
@Suite struct ScenePhaseReportTests {
    @Test func onlyTheBackgroundIsAway() {
        #expect(AppScenePhase(ScenePhase.active) == .active)
        #expect(AppScenePhase(ScenePhase.inactive) == .inactive)
        #expect(AppScenePhase(ScenePhase.background) == .background)
    }
}
