import Foundation
import Mustache

/// The templates of the HTML the server writes outside the console (`Resources/Pages`): the
/// pages a mail's link opens (`link-page.mustache`, styled by `link-page.css`) and the HTML
/// part of every mail (`mail-message.mustache`). Like the console's, every value goes in
/// through swift-mustache's `{{value}}`, the server's one HTML escaper.
struct PageTemplates: Sendable {
    let library: MustacheLibrary
    /// The link pages' one style sheet, inlined in each page and allowed by its hash.
    let linkPageStyle: String

    /// The bundle's templates, read once; `buildApplication` asks for them first, so that a
    /// server whose resources lack them refuses to start rather than answer a link badly.
    static let bundled: Result<PageTemplates, any Error> = Result {
        guard let directory = Bundle.module.url(forResource: "Pages", withExtension: nil) else { throw Missing() }
        var library = MustacheLibrary()
        for name in ["link-page", "mail-message"] {
            let text = try String(contentsOf: directory.appendingPathComponent("\(name).mustache"), encoding: .utf8)
            try library.register(text, named: name)
        }
        let style = try String(contentsOf: directory.appendingPathComponent("link-page.css"), encoding: .utf8)
        return PageTemplates(library: library, linkPageStyle: style.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Template `name` rendered with `view` (a value whose stored properties the template reads).
    static func render(_ view: Any, with name: String) -> String {
        switch bundled {
        case .success(let templates): templates.library.render(view, withTemplate: name) ?? "Missing page template \(name)"
        case .failure(let error): "\(error)"
        }
    }

    struct Missing: Error, CustomStringConvertible {
        var description: String { "the pages' templates are missing from the server's resources (Resources/Pages)" }
    }
}
