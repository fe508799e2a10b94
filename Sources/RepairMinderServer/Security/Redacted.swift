/// A type that holds a key, secret, hash or token. However it is printed (`"\(x)"`,
/// `String(reflecting:)`, `dump`, a log line listing services), it shows its type's name and
/// nothing it holds: Swift's default rendering walks every stored property, key bytes included.
protocol Redacted: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {}

extension Redacted {
    var description: String { "\(Self.self)(redacted)" }
    var debugDescription: String { description }
    var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension SecretBox: Redacted {}
extension SecretHashing: Redacted {}
extension TokenSigner: Redacted {}
extension TokenSigner.Keys: Redacted {}
extension SigningKeySet: Redacted {}
extension SigningKeySet.Key: Redacted {}
