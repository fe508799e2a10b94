#if canImport(SwiftUI)
import RepairMinderKit
import RepairMinderModels
import SwiftUI

/// Choosing one of several repair shops; each with its logo, or a placeholder.
public struct CompanySelectionView: View {
    let model: CompanySelectionViewModel

    public init(model: CompanySelectionViewModel) {
        self.model = model
    }

    public var body: some View {
        NavigationStack {
            List {
                Section {
                    ForEach(model.companies) { company in
                        Button {
                            Task { await model.select(company) }
                        } label: {
                            HStack(spacing: 12) {
                                CompanyLogo(url: company.logoUrl.flatMap(URL.init(string:)))
                                Text(company.name)
                                    .font(.body)
                                    .foregroundStyle(.primary)
                            }
                        }
                        .accessibilityLabel("Sign in to \(company.name)")
                        .disabled(model.isLoading)
                    }
                } header: {
                    Text("You're a customer of several shops")
                }
                ErrorMessage(text: model.errorMessage)
            }
            .navigationTitle("Choose a Shop")
            .toolbar {
                ToolbarItem(placement: .cancellationAction) {
                    Button("Cancel", action: model.cancel)
                }
            }
        }
    }
}

/// A company's logo, or its initial-free placeholder while loading or when it has none.
struct CompanyLogo: View {
    let url: URL?
    @ScaledMetric private var size: CGFloat = 40

    var body: some View {
        AsyncImage(url: url) { image in
            image.resizable().scaledToFit()
        } placeholder: {
            Image(systemName: "building.2")
                .foregroundStyle(.secondary)
        }
        .frame(width: size, height: size)
        .clipShape(RoundedRectangle(cornerRadius: 8))
        .accessibilityHidden(true)
    }
}

#if !SWIFTUI_STAND_IN  // #Preview is a macro Xcode implements (StandIns/README.md)
#Preview("Company selection") {
    CompanySelectionView(model: CompanySelectionViewModel(auth: PreviewSupport.app().customer))
}
#endif
#endif
