/// A request field that breaks the contract. The server answers it as 400 `VALIDATION_ERROR`
/// with `message`, which names the field (docs/API.md §1).
public struct FieldProblem: Error, Sendable, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
}
