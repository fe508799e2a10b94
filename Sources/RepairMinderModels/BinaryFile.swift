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
