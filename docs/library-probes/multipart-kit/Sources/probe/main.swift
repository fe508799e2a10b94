import MultipartKit

// Bodies the console's reader refuses (MultipartFormDataTests.whatABrowserDoesNotSendIsRefused
// and onlyCRLFLineBreaksAreRead): what multipart-kit 4.7.1's parser makes of each.
let part = "Content-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n"
let good = "--XyZ\r\n\(part)--XyZ--\r\n"
let cases: [(String, String)] = [
    ("empty body", ""),
    ("preamble", "preamble\r\n--XyZ\r\n\(part)--XyZ--"),
    ("transport padding", "--XyZ \r\n\(part)--XyZ--"),
    ("no closing boundary", "--XyZ\r\n\(part)"),
    ("truncated at the last boundary", "--XyZ\r\n\(part)--XyZ"),
    ("ends inside the part", "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1"),
    ("epilogue", "--XyZ\r\n\(part)--XyZ--\r\nepilogue"),
    ("no headers", "--XyZ\r\n\r\n1\r\n--XyZ--"),
    ("no Content-Disposition", "--XyZ\r\nContent-Type: text/plain\r\n\r\n1\r\n--XyZ--"),
    ("attachment", "--XyZ\r\nContent-Disposition: attachment; name=\"a\"\r\n\r\n1\r\n--XyZ--"),
    ("two names", "--XyZ\r\nContent-Disposition: form-data; name=\"a\"; name=\"b\"\r\n\r\n1\r\n--XyZ--"),
    ("two Content-Dispositions", "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\nContent-Disposition: form-data; name=\"b\"\r\n\r\n1\r\n--XyZ--"),
    ("LF only", good.replacingOccurrences(of: "\r\n", with: "\n")),
    ("LF before the closing boundary", "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\n--XyZ--\r\n"),
    ("other boundary", "--OTHER\r\n\(part)--OTHER--"),
]
var accepted = 0
for (name, body) in cases {
    var parts = 0, headers: [(String, String)] = [], bodyBytes = 0
    let parser = MultipartParser(boundary: "XyZ")
    parser.onHeader = { headers.append(($0, $1)) }
    parser.onBody = { bodyBytes += $0.readableBytes }
    parser.onPartComplete = { parts += 1 }
    do {
        try parser.execute(body)
        accepted += 1
        print("accepted  \(name): \(parts) complete part(s), headers \(headers), \(bodyBytes) body bytes")
    } catch {
        print("refused   \(name): \(error)")
    }
}
print("\(accepted) of \(cases.count) accepted without an error")
