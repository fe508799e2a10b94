import Foundation
import Testing

@testable import RepairMinderServer

/// The console's strict `multipart/form-data` reader (the clients' CSV upload): what a browser
/// sends is read, anything else is refused, and nothing is read past its limits.
@Suite struct MultipartFormDataTests {
    static let limits = MultipartFormData.Limits(file: 64, field: 16, parts: 4, headers: 256)

    /// A body as a browser builds it: `parts` of (headers, content), CRLF throughout.
    static func body(_ boundary: String, _ parts: [(String, String)], closing: String = "--\r\n") -> [UInt8] {
        var text = ""
        for (headers, content) in parts { text += "--\(boundary)\r\n\(headers)\r\n\r\n\(content)\r\n" }
        return Array((text + "--\(boundary)\(closing)").utf8)
    }

    static func parse(_ body: [UInt8], boundary: String = "XyZ", limits: MultipartFormData.Limits = limits) throws -> MultipartFormData {
        try MultipartFormData.parse(body, boundary: boundary, limits: limits)
    }

    @Test func aBrowsersFormIsRead() throws {
        let body = Self.body(
            "XyZ",
            [
                ("Content-Disposition: form-data; name=\"csrf\"", "token"),
                ("Content-Disposition: form-data; name=\"file\"; filename=\"clients.csv\"\r\nContent-Type: text/csv", "email\r\na@b.test\r\n"),
                ("content-disposition: form-data; name=\"dryRun\"", "true"),
            ])
        let form = try Self.parse(body)
        #expect(form.parts.count == 3)
        #expect(form.text("csrf") == "token")
        #expect(form.text("dryRun") == "true")
        let file = try #require(form.part("file"))
        #expect(file.filename == "clients.csv")
        #expect(file.contentType == "text/csv")
        // The file's own line breaks are its content; only the one before the boundary is not.
        #expect(String(decoding: file.body, as: UTF8.self) == "email\r\na@b.test\r\n")
        #expect(form.text("file") == nil, "a file is not a text field")
        #expect(form.text("missing") == nil)
    }

    @Test func theClosingBoundaryMayEndTheBodyWithoutALineBreak() throws {
        let form = try Self.parse(Self.body("XyZ", [("Content-Disposition: form-data; name=\"a\"", "1")], closing: "--"))
        #expect(form.text("a") == "1")
    }

    @Test func contentThatLooksLikeABoundaryButIsNotOnItsOwnLineIsContent() throws {
        let form = try Self.parse(Self.body("XyZ", [("Content-Disposition: form-data; name=\"file\"; filename=\"a\"", "x--XyZ\ny")]))
        #expect(String(decoding: try #require(form.part("file")).body, as: UTF8.self) == "x--XyZ\ny")
    }

    @Test func emptyFileInputsAndEmptyFieldsAreParts() throws {
        let form = try Self.parse(
            Self.body(
                "XyZ",
                [
                    ("Content-Disposition: form-data; name=\"file\"; filename=\"\"\r\nContent-Type: application/octet-stream", ""),
                    ("Content-Disposition: form-data; name=\"note\"", ""),
                ]))
        #expect(form.part("file")?.filename == "")
        #expect(form.part("file")?.body.isEmpty == true)
        #expect(form.text("note") == "")
    }

    @Test func theBoundaryComesFromTheContentTypeQuotedOrNot() throws {
        #expect(try MultipartFormData.boundary(contentType: "multipart/form-data; boundary=----WebKitFormBoundaryAbC123") == "----WebKitFormBoundaryAbC123")
        #expect(try MultipartFormData.boundary(contentType: "Multipart/Form-Data;BOUNDARY=abc") == "abc")
        #expect(try MultipartFormData.boundary(contentType: #"multipart/form-data; charset=utf-8; boundary="a b:c?d""#) == "a b:c?d")
        #expect(try MultipartFormData.boundary(contentType: #"multipart/form-data; boundary="a\bc""#) == "abc", "a quoted pair")
        for refused in [
            "application/x-www-form-urlencoded", "multipart/mixed; boundary=abc", "multipart/form-data", "multipart/form-data; boundary=",
            #"multipart/form-data; boundary="abc"#, "multipart/form-data; boundary=a:b", #"multipart/form-data; boundary="ends in space ""#,
            "multipart/form-data; boundary=" + String(repeating: "b", count: 71), "multipart/form-data; boundary=a; boundary=b",
            #"multipart/form-data; boundary="a"b"#, "multipart/form-data; boundary=abc junk",
        ] {
            #expect(throws: MultipartFormData.Problem.notMultipart, "\(refused)") { try MultipartFormData.boundary(contentType: refused) }
        }
        // The longest boundary there is, read and used.
        let longest = String(repeating: "b", count: 70)
        #expect(try MultipartFormData.boundary(contentType: "multipart/form-data; boundary=\(longest)") == longest)
        let form = try Self.parse(Self.body(longest, [("Content-Disposition: form-data; name=\"a\"", "1")]), boundary: longest)
        #expect(form.text("a") == "1")
    }

    @Test func onlyCRLFLineBreaksAreRead() throws {
        let good = "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--XyZ--\r\n"
        #expect(try Self.parse(Array(good.utf8)).text("a") == "1")
        for bad in [
            good.replacingOccurrences(of: "\r\n", with: "\n"),
            "--XyZ\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--XyZ--\r\n",
            "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\n\n1\r\n--XyZ--\r\n",
            "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\nX-A: 1\rX-B: 2\r\n\r\n1\r\n--XyZ--\r\n",
            // Before the closing boundary the line break is CRLF, not LF.
            "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\n--XyZ--\r\n",
        ] {
            #expect(throws: MultipartFormData.Problem.self, "\(bad.debugDescription)") { try Self.parse(Array(bad.utf8)) }
        }
    }

    @Test func whatABrowserDoesNotSendIsRefused() throws {
        let part = "Content-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n"
        for bad in [
            "",
            "preamble\r\n--XyZ\r\n\(part)--XyZ--",
            "--XyZ \r\n\(part)--XyZ--",  // transport padding
            "--XyZ\r\n\(part)",  // no closing boundary
            "--XyZ\r\n\(part)--XyZ",  // truncated at the last boundary
            "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1",  // ends inside the part
            "--XyZ\r\n\(part)--XyZ--\r\nepilogue",
            "--XyZ\r\n\r\n1\r\n--XyZ--",  // no headers: no name
            "--XyZ\r\nContent-Type: text/plain\r\n\r\n1\r\n--XyZ--",  // no Content-Disposition
            "--XyZ\r\nContent-Disposition: attachment; name=\"a\"\r\n\r\n1\r\n--XyZ--",
            "--XyZ\r\nContent-Disposition: form-data; filename=\"a\"\r\n\r\n1\r\n--XyZ--",  // no name
            "--XyZ\r\nContent-Disposition: form-data; name=\"a\r\n\r\n1\r\n--XyZ--",  // unclosed quote
            "--XyZ\r\nContent-Disposition: form-data; name=\"a\"; name=\"b\"\r\n\r\n1\r\n--XyZ--",
            "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\nContent-Disposition: form-data; name=\"b\"\r\n\r\n1\r\n--XyZ--",
            "--XyZ\r\nContent-Disposition: form-data;\r\n name=\"a\"\r\n\r\n1\r\n--XyZ--",  // a folded line
            "--XyZ\r\nContent-Disposition : form-data; name=\"a\"\r\n\r\n1\r\n--XyZ--",
            "--XyZ\r\nno colon here\r\n\r\n1\r\n--XyZ--",
            "--OTHER\r\n\(part)--OTHER--",
        ] {
            #expect(throws: MultipartFormData.Problem.self, "\(bad.debugDescription)") { try Self.parse(Array(bad.utf8)) }
        }
    }

    @Test func nothingIsReadPastTheLimits() throws {
        let limits = Self.limits
        // A file of exactly the limit is read; one byte more is too large.
        let exact = String(repeating: "f", count: limits.file)
        let file = "Content-Disposition: form-data; name=\"file\"; filename=\"a.csv\""
        #expect(try Self.parse(Self.body("XyZ", [(file, exact)])).part("file")?.body.count == limits.file)
        #expect(throws: MultipartFormData.Problem.tooLarge) { try Self.parse(Self.body("XyZ", [(file, exact + "f")])) }
        // A text field has its own, smaller limit.
        let field = "Content-Disposition: form-data; name=\"csrf\""
        #expect(try Self.parse(Self.body("XyZ", [(field, String(repeating: "t", count: limits.field))])).text("csrf") != nil)
        #expect(throws: MultipartFormData.Problem.tooLarge) {
            try Self.parse(Self.body("XyZ", [(field, String(repeating: "t", count: limits.field + 1))]))
        }
        // So does the whole body, and the number of parts and the size of their headers.
        #expect(throws: MultipartFormData.Problem.tooLarge) { try Self.parse([UInt8](repeating: 0x2D, count: limits.body + 1)) }
        let many = (0...limits.parts).map { ("Content-Disposition: form-data; name=\"p\($0)\"", "1") }
        #expect(throws: MultipartFormData.Problem.malformed("more than \(limits.parts) parts")) { try Self.parse(Self.body("XyZ", many)) }
        #expect(try Self.parse(Self.body("XyZ", Array(many.dropLast()))).parts.count == limits.parts)
        let longHeader = "Content-Disposition: form-data; name=\"a\"\r\nX-Padding: " + String(repeating: "p", count: limits.headers)
        #expect(throws: MultipartFormData.Problem.self) { try Self.parse(Self.body("XyZ", [(longHeader, "1")])) }
    }

    @Test func aRepeatedNameKeepsTheFirstAndFilenamesMayBeUTF8() throws {
        let form = try Self.parse(
            Self.body(
                "XyZ",
                [
                    ("Content-Disposition: form-data; name=\"a\"", "first"),
                    ("Content-Disposition: form-data; name=\"a\"", "second"),
                    ("Content-Disposition: form-data; name=\"file\"; filename=\"clients é.csv\"", "x"),
                ]))
        #expect(form.text("a") == "first")
        #expect(form.part("file")?.filename == "clients é.csv")
    }
}
