#if canImport(SwiftUI)
import RepairMinderKit
import SwiftUI

/// First launch: "I work at a repair shop" or "I'm a customer" (seed 003).
public struct RoleSelectionView: View {
    let roles: RoleSelectionViewModel

    public init(roles: RoleSelectionViewModel) {
        self.roles = roles
    }

    public var body: some View {
        VStack(spacing: 24) {
            Spacer()
            Image(systemName: "wrench.and.screwdriver")
                .font(.system(size: 56))
                .foregroundStyle(.tint)
                .accessibilityHidden(true)
            Text("Repair Minder")
                .font(.largeTitle.bold())
            Text("How will you use the app?")
                .font(.body)
                .foregroundStyle(.secondary)
            VStack(spacing: 12) {
                Button {
                    roles.select(.staff)
                } label: {
                    Label("I work at a repair shop", systemImage: "person.badge.key")
                        .frame(maxWidth: .infinity)
                }
                .buttonStyle(.borderedProminent)
                .accessibilityHint("Sign in with your staff account")
                Button {
                    roles.select(.customer)
                } label: {
                    Label("I'm a customer", systemImage: "person")
                        .frame(maxWidth: .infinity)
                }
                .buttonStyle(.bordered)
                .accessibilityHint("Follow your repairs and approve quotes")
            }
            .controlSize(.large)
            Spacer()
        }
        .padding()
    }
}

#if !SWIFTUI_STAND_IN  // #Preview is a macro Xcode implements (StandIns/README.md)
#Preview("Role selection") {
    RoleSelectionView(roles: PreviewSupport.app().roles)
}
#endif
#endif
