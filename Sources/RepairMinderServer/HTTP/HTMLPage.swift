import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// A small self-contained HTML page the server answers a person with (a link from a mail):
/// works without JavaScript, loads nothing, runs nothing, styles itself only with its own sheet
/// (by hash), posts only back to this origin, sits in no frame, sends no `Referer` (a link's
/// token is in the address) and is never cached.
struct HTMLPage: Equatable {
    /// A form that posts the link's token back with a new password, typed twice.
    struct Form: Equatable {
        struct Password: Equatable {
            let name: String
            let label: String
            var required = true
        }
        /// Relative: the form posts back to its page's path under whatever prefix the public URL
        /// has, and the token travels in the body, not the address.
        let action: String
        let token: String
        let passwords: [Password]
        /// A paragraph between the fields and the button.
        var note: String?
        /// The button's words.
        let submit: String
    }

    let status: HTTPResponse.Status
    /// Who the page is from, after the heading in the title ("REKI", "Repair Minder").
    let site: String
    /// The `<h1>` and the title.
    let heading: String
    /// What was wrong with the last try, as an alert above everything else.
    var problem: String?
    /// The text below the heading, a paragraph each.
    var paragraphs: [String] = []
    var form: Form?

    /// The page as a response; `headers` adds to the page's own (`Retry-After` on a 429).
    func response(headers extra: HTTPFields = [:]) -> Response {
        var headers = extra
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        headers[Self.xFrameOptions] = "DENY"
        // The token in the address never leaves for another site; `same-origin`, not
        // `no-referrer`, because under `no-referrer` a browser sends the page's own form post
        // with `Origin: null`, and the invitation page takes a form only from itself.
        headers[Self.referrerPolicy] = "same-origin"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// The whole document (`link-page.mustache`).
    var html: String { PageTemplates.render(View(page: self, style: Self.style), with: "link-page") }

    /// What the template reads: the page and its style sheet.
    private struct View {
        let page: HTMLPage
        let style: String
    }

    /// The pages' one style sheet (`link-page.css`), inline: allowed by its hash, so no other
    /// style can apply.
    static let style = (try? PageTemplates.bundled.get())?.linkPageStyle ?? ""

    /// Nothing may load or run; only the style sheet above applies, the form posts only to this
    /// origin, no page may frame this one, and no `<base>` can redirect its relative action.
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'sha256-\(Data(SHA256.hash(data: Data(style.utf8))).base64EncodedString())'; "
        + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
