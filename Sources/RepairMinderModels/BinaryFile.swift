import Foundation

/// The body of an answer that is a file (an image, a PDF), not JSON.
public struct BinaryFile: Codable, Sendable, Equatable {
    public var data: Data
    public var contentType: String?
    public init(data: Data, contentType: String?) {
        self.data = data
        self.contentType = contentType
    }
}

extension BinaryFile: WireType {
    /// The body is the file's bytes, not JSON; its media type is the route's.
    public static var schema: JSONSchema { .string(.init(format: "binary")) }
    public static var example: BinaryFile {
        // The 8-byte PNG signature and the start of an IHDR chunk.
        BinaryFile(
            data: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52]),
            contentType: "image/png")
    }
}
