import Foundation
import RepairMinderModels

/// What list pages and destructive actions share: the pager under a list, the roles' names as
/// a person reads them, and the confirmation page before anything is undone.
enum ConsoleListing {
    /// "Page 2 of 5", with links to the pages either side that keep the other query parameters.
    struct Pager {
        let summary: String
        let previous: String?
        let next: String?
    }

    static func pager(_ pagination: Pagination, path: String, query: [String: String]) -> Pager {
        func link(_ page: Int) -> String {
            var items = query.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
            items.append(URLQueryItem(name: "page", value: String(page)))
            var components = URLComponents()
            components.queryItems = items
            return Console.root + path + "?" + (components.percentEncodedQuery ?? "")
        }
        let pages = max(pagination.totalPages, 1)
        return Pager(
            summary: "Page \(pagination.page) of \(pages) · \(pagination.total) in all",
            previous: pagination.page > 1 ? link(pagination.page - 1) : nil,
            next: pagination.page < pages ? link(pagination.page + 1) : nil)
    }

    /// The role as the console shows it.
    static func roleName(_ role: UserRole) -> String {
        switch role {
        case .masterAdmin: "Platform administrator"
        case .admin: "Admin"
        case .seniorEngineer: "Senior engineer"
        case .engineer: "Engineer"
        case .office: "Office"
        case .unknown(let raw): raw
        }
    }

    /// The roles a shop's admin may give (§12: every role but the platform's).
    static let shopRoles: [UserRole] = [.admin, .seniorEngineer, .engineer, .office]

    /// A choice in a `<select>`.
    struct Option {
        let value: String
        let label: String
        let selected: Bool
    }

    static func roleOptions(selected: UserRole?) -> [Option] {
        shopRoles.map { Option(value: $0.rawValue, label: roleName($0), selected: $0 == selected) }
    }

    /// The page that asks before a destructive action: what will happen, the button that does
    /// it (a form posting to `action`) and a way back.
    struct Confirmation {
        let question: String
        let consequence: String
        let action: String
        let button: String
        let back: String
    }
}
