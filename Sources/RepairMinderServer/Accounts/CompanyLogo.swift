import Foundation
import RepairMinderModels

/// Where a company's logo is shown from. A company's stored logo is either an absolute
/// `http(s)` URL, used as it is, or a file on the server, served at
/// `<public url>/api/branding/<company id>/logo` (docs/API.md §3.2).
enum CompanyLogo {
    static func publicURL(for company: CompanyRecord, serverURL: String) -> String? {
        guard let stored = company.logoUrl, !stored.isEmpty else { return nil }
        if isRemote(stored) { return stored }
        return serverURL + (Routes.public.companyLogo.path.rendered([company.id]) ?? "")
    }

    static func isRemote(_ stored: String) -> Bool {
        stored.hasPrefix("https://") || stored.hasPrefix("http://")
    }

    /// Whether `path`, symbolic links resolved, names a file inside `directory` (no `..` or link
    /// leads out of it).
    static func isInside(_ path: String, directory: String) -> Bool {
        let root = URL(fileURLWithPath: directory).standardizedFileURL.resolvingSymlinksInPath().path
        let file = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        return file.hasPrefix(root.hasSuffix("/") ? root : root + "/")
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
