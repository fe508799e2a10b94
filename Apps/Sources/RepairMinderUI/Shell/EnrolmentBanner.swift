#if canImport(SwiftUI)
import RepairMinderKit
import SwiftUI

/// Over the staff tabs during the grace period (docs/API.md §13.3): what the shop requires and
/// by when, and "Set Up" for the enrolment screen as a sheet. Nothing when nothing is required
/// (a restricted session sees the enrolment screen instead of the tabs).
struct EnrolmentBanner: View {
    @State private var model: EnrolmentBannerViewModel
    @State private var isEnrolling = false

    init(auth: StaffAuth) {
        _model = State(initialValue: EnrolmentBannerViewModel(auth: auth))
    }

    var body: some View {
        if let text = model.text {
            HStack {
                Label(text, systemImage: "lock.shield")
                    .font(.callout)
                Spacer()
                Button("Set Up") { isEnrolling = true }
                    .buttonStyle(.borderedProminent)
                    .controlSize(.small)
            }
            .padding()
            .background(.thinMaterial, in: .rect(cornerRadius: 8))
            .padding()
            .sheet(isPresented: $isEnrolling) {
                Owned { EnrolmentViewModel(auth: model.auth) } content: { EnrolmentView(model: $0, isSheet: true) }
            }
        }
    }
}
#endif
