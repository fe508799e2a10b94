import Foundation
import RepairMinderModels

/// Where a company's logo is shown from. A company's stored logo is either an absolute
/// `http(s)` URL, used as it is, or a file on the server, served at
/// `<public url>/api/branding/<company id>/logo` (docs/API.md §3.2).
enum CompanyLogo {
    static func publicURL(for company: CompanyRecord, serverURL: String) -> String? {
        guard let stored = company.logoUrl, !stored.isEmpty else { return nil }
        if isRemote(stored) { return stored }
        return serverURL + (Routes.Public.companyLogo.path.rendered([company.id]) ?? "")
    }

    static func isRemote(_ stored: String) -> Bool {
        stored.hasPrefix("https://") || stored.hasPrefix("http://")
    }

    /// The content type for a logo file, by its extension.
    static func contentType(forPath path: String) -> String? {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "svg": "image/svg+xml"
        default: nil
        }
    }
}
