#if canImport(SwiftUI)
import Foundation
import RepairMinderKit

/// An app model for previews: in-memory credentials, a server address nothing answers at.
@MainActor
enum PreviewSupport {
    static func app() -> AppModel {
        AppModel(api: APIClient(baseURL: URL(fileURLWithPath: "/"), store: InMemoryCredentialStore()))
    }
}
#endif
