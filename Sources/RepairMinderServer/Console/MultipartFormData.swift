import Foundation

/// A `multipart/form-data` body (RFC 7578 over RFC 2046's multipart syntax), read strictly: the
/// console's one upload (the clients' CSV import, docs/API.md §15.6) is posted by a browser's
/// form, so anything a browser does not send is refused rather than guessed at. No preamble,
/// no transport padding after a boundary, lines end in CRLF, every part names itself in a
/// `Content-Disposition: form-data` header, the closing boundary is there, and every size is
/// bounded (`Limits`).
struct MultipartFormData: Sendable, Equatable {
    /// One field of the form: a text field's value, or a file's bytes and name.
    struct Part: Sendable, Equatable {
        let name: String
        /// The file's name as the browser sent it; nil for a text field ("" for a file input
        /// left empty, which browsers send as a part with an empty name and no bytes).
        let filename: String?
        let contentType: String?
        let body: Data
    }

    let parts: [Part]

    /// The first part named `name`.
    func part(_ name: String) -> Part? { parts.first { $0.name == name } }

    /// The text of the first part named `name`, when it is not a file and is UTF-8.
    func text(_ name: String) -> String? {
        guard let part = part(name), part.filename == nil else { return nil }
        return String(data: part.body, encoding: .utf8)
    }

    /// What a body may hold.
    struct Limits: Sendable {
        /// The largest file part.
        var file: Int
        /// The largest text part: a checkbox's value, a CSRF token.
        var field = 4096
        /// The most parts.
        var parts = 16
        /// The largest header block of one part.
        var headers = 4096

        /// The largest body these parts can make (each part's headers and boundary lines
        /// included): what is read of a request at most.
        var body: Int { file + parts * (field + headers + 2 * MultipartFormData.maximumBoundary) }
    }

    /// Why a body was refused.
    enum Problem: Error, Equatable {
        /// The `Content-Type` is not `multipart/form-data` with a usable boundary.
        case notMultipart
        /// The body is not what a browser's form sends (the reason is for the log and tests).
        case malformed(String)
        /// The body, or one of its parts, is larger than the limits.
        case tooLarge
    }

    /// RFC 2046: a boundary is 1 to 70 characters.
    static let maximumBoundary = 70

    // MARK: The Content-Type

    /// The boundary of a `multipart/form-data` `Content-Type` (its parameter may be quoted).
    static func boundary(contentType: String) throws -> String {
        guard let header = HeaderValue(Array(contentType.utf8)), header.value == "multipart/form-data",
            let boundary = header.parameters["boundary"], isValidBoundary(boundary)
        else { throw Problem.notMultipart }
        return boundary
    }

    /// RFC 2046's `boundary`: 1 to 70 of its `bchars`, not ending in a space.
    static func isValidBoundary(_ boundary: String) -> Bool {
        let bytes = Array(boundary.utf8)
        guard (1...maximumBoundary).contains(bytes.count), bytes.last != UInt8(ascii: " ") else { return false }
        return bytes.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || "'()+_,-./:=? ".utf8.contains(byte)
        }
    }

    // MARK: The body

    private static let crlf: [UInt8] = [0x0D, 0x0A]
    private static let dashes: [UInt8] = [0x2D, 0x2D]

    /// Reads `body`, whose parts are separated by `boundary`.
    static func parse(_ body: [UInt8], boundary: String, limits: Limits) throws -> MultipartFormData {
        guard body.count <= limits.body else { throw Problem.tooLarge }
        guard isValidBoundary(boundary) else { throw Problem.notMultipart }
        let dashBoundary = dashes + Array(boundary.utf8)
        // Between parts the boundary line starts a line of its own: CRLF belongs to it.
        let delimiter = crlf + dashBoundary
        // Browsers send no preamble: the body opens with the first boundary.
        guard body.starts(with: dashBoundary) else { throw Problem.malformed("the body does not open with the boundary") }
        var index = dashBoundary.count
        var parts: [Part] = []
        while true {
            if body[index...].starts(with: dashes) {
                // The closing boundary; at most a line break after it (no epilogue).
                let rest = body[(index + 2)...]
                guard rest.isEmpty || rest.elementsEqual(crlf) else { throw Problem.malformed("text after the closing boundary") }
                return MultipartFormData(parts: parts)
            }
            guard body[index...].starts(with: crlf) else { throw Problem.malformed("a boundary line that does not end in CRLF") }
            index += 2
            guard parts.count < limits.parts else { throw Problem.malformed("more than \(limits.parts) parts") }
            guard let headerEnd = firstIndex(of: crlf + crlf, in: body, from: index, within: limits.headers + 4) else {
                throw Problem.malformed("a part's headers do not end within \(limits.headers) bytes")
            }
            let headers = try Self.headers(Array(body[index..<headerEnd]))
            let start = headerEnd + 4
            guard let end = firstIndex(of: delimiter, in: body, from: start, within: body.count) else {
                throw Problem.malformed("the body ends inside a part (no closing boundary)")
            }
            guard end - start <= (headers.filename == nil ? limits.field : limits.file) else { throw Problem.tooLarge }
            parts.append(
                Part(name: headers.name, filename: headers.filename, contentType: headers.contentType, body: Data(body[start..<end])))
            index = end + delimiter.count
        }
    }

    /// A part's headers: its `Content-Disposition` (required, `form-data` with a `name`) and
    /// `Content-Type`; other headers are read over, none may appear twice.
    private static func headers(_ block: [UInt8]) throws -> (name: String, filename: String?, contentType: String?) {
        var disposition: HeaderValue?
        var contentType: String?
        // `block` is the lines before the blank one (at least one: a part without headers has
        // no name). Each is `name: value`; a bare CR or LF, or a folded line, is refused.
        for line in split(block, on: crlf) {
            guard !line.contains(0x0D), !line.contains(0x0A), let colon = line.firstIndex(of: UInt8(ascii: ":")),
                colon > line.startIndex, line[..<colon].allSatisfy(HeaderValue.isTokenByte)
            else { throw Problem.malformed("a header line that is not `name: value`") }
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            let value = Array(line[(colon + 1)...])
            switch name {
            case "content-disposition":
                guard disposition == nil, let parsed = HeaderValue(value) else { throw Problem.malformed("a bad or repeated Content-Disposition") }
                disposition = parsed
            case "content-type":
                guard contentType == nil, let parsed = HeaderValue(value) else { throw Problem.malformed("a bad or repeated Content-Type") }
                contentType = parsed.value
            default:
                continue
            }
        }
        guard let disposition, disposition.value == "form-data", let name = disposition.parameters["name"] else {
            throw Problem.malformed("a part without `Content-Disposition: form-data; name=…`")
        }
        return (name, disposition.parameters["filename"], contentType)
    }

    /// Where `needle` first starts in `haystack` at `from` or after, ending within `within`
    /// bytes of `from`; nil when it does not.
    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from: Int, within: Int) -> Int? {
        let last = min(haystack.count, from + within) - needle.count
        guard from <= last, let first = needle.first else { return nil }
        var index = from
        while index <= last {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// `bytes` cut at every `separator`.
    private static func split(_ bytes: [UInt8], on separator: [UInt8]) -> [ArraySlice<UInt8>] {
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        while let found = firstIndex(of: separator, in: bytes, from: start, within: bytes.count) {
            pieces.append(bytes[start..<found])
            start = found + separator.count
        }
        pieces.append(bytes[start...])
        return pieces
    }
}

/// A header's value with parameters (RFC 9110 §5.6.6): `form-data; name="csv"; filename="a.csv"`,
/// `multipart/form-data; boundary=x`. The value is lowercased, as are parameter names; a
/// parameter's value is a token or a quoted string (`\` quotes the character after it).
struct HeaderValue: Equatable {
    let value: String
    let parameters: [String: String]

    /// Nil for anything else: an unclosed quote, a control character, a parameter twice.
    init?(_ bytes: [UInt8]) {
        var index = 0
        func skipWhitespace() { while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 } }
        func token(allowingSlash: Bool = false) -> String? {
            let start = index
            while index < bytes.count, Self.isTokenByte(bytes[index]) || (allowingSlash && bytes[index] == UInt8(ascii: "/")) { index += 1 }
            return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
        }
        func quoted() -> String? {
            index += 1  // the opening quote
            var text: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return String(bytes: text, encoding: .utf8)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count, bytes[index] >= 0x20 || bytes[index] == 0x09, bytes[index] != 0x7F else { return nil }
                    text.append(bytes[index])
                    index += 1
                case 0x09, 0x20...0x7E, 0x80...0xFF: text.append(byte)
                default: return nil
                }
            }
            return nil
        }
        skipWhitespace()
        guard let value = token(allowingSlash: true) else { return nil }
        var parameters: [String: String] = [:]
        while true {
            skipWhitespace()
            if index == bytes.count { break }
            guard bytes[index] == UInt8(ascii: ";") else { return nil }
            index += 1
            skipWhitespace()
            guard let name = token()?.lowercased(), index < bytes.count, bytes[index] == UInt8(ascii: "=") else { return nil }
            index += 1
            let parameter = index < bytes.count && bytes[index] == UInt8(ascii: "\"") ? quoted() : token()
            guard let parameter, parameters[name] == nil else { return nil }
            parameters[name] = parameter
        }
        self.value = value.lowercased()
        self.parameters = parameters
    }

    /// RFC 9110's `tchar`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
}
