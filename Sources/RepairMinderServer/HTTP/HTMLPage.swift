import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// A small self-contained HTML page the server answers a person with (a link from a mail):
/// works without JavaScript, loads nothing, runs nothing, styles itself only with its own sheet
/// (by hash), posts only back to this origin, sits in no frame, sends no `Referer` (a link's
/// token is in the address) and is never cached.
struct HTMLPage: Equatable {
    let status: HTTPResponse.Status
    /// The `<h1>` and the title, as text.
    let heading: String
    /// The content below the heading, as HTML (every interpolated text escaped by its maker).
    let body: String
    /// Who the page is from, after the heading in the title ("REKI", "Repair Minder").
    let site: String

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

    /// The whole document.
    var html: String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="same-origin">
        <title>\(Self.escaped(heading)) · \(Self.escaped(site))</title>
        <style>\(Self.style)</style>
        </head>
        <body>
        <main>
        <h1>\(Self.escaped(heading))</h1>
        \(body)
        </main>
        </body>
        </html>

        """
    }

    /// `text` safe anywhere in an element's content or a quoted attribute value.
    static func escaped(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// A problem to show above a form, as an alert.
    static func problem(_ text: String?) -> String {
        text.map { #"<p class="problem" role="alert">\#(escaped($0))</p>"# + "\n" } ?? ""
    }

    /// The pages' one style sheet, inline: allowed by its hash, so no other style can apply.
    static let style = """
        body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:2rem 1rem;background:#f4f4f2;color:#1d1d1f}\
        main{max-width:26rem;margin:0 auto;background:#fff;padding:1.5rem 2rem;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.2)}\
        h1{font-size:1.4rem;margin-top:0}\
        label{display:block;margin-top:1rem;font-weight:600}\
        input{box-sizing:border-box;width:100%;padding:.6rem;margin-top:.3rem;font-size:1rem;border:1px solid #888;border-radius:6px}\
        button{margin-top:1.5rem;width:100%;padding:.7rem;font-size:1rem;border:0;border-radius:6px;background:#1d4ed8;color:#fff}\
        .problem{color:#9b0000;background:#fdecec;padding:.6rem .8rem;border-radius:6px}
        """

    /// Nothing may load or run; only the style sheet above applies, the form posts only to this
    /// origin, no page may frame this one, and no `<base>` can redirect its relative action.
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'sha256-\(Data(SHA256.hash(data: Data(style.utf8))).base64EncodedString())'; "
        + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
