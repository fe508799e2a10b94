import Foundation

/// A command that could not do its work (no database there, no such shop, a file it cannot
/// use): `main` prints it as one `error: ...` line and exits with status 1. Usage text is only
/// for mistakes in the command line itself (`ValidationError`, status 2); after a runtime
/// failure it would only hide the line that matters.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

enum FailureMessage {
    /// What `error: ` is followed by for `error`: the project's errors say it in their
    /// `description`; a library's error is described without its Swift type's dump.
    static func text(for error: any Error) -> String {
        switch error {
        case let error as DecodingError:
            switch error {
            case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
                let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
                return "unreadable data\(path.isEmpty ? "" : " at \(path)"): \(context.debugDescription)"
            @unknown default:
                return String(describing: error)
            }
        case let error as any LocalizedError:
            return error.errorDescription ?? String(describing: error)
        case let error as any CustomStringConvertible:
            return error.description
        default:
            return String(describing: error)
        }
    }
}
