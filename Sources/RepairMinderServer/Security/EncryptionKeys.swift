/// The encryption key, and during a rotation the one before it (docs/operating.md, "Rotating
/// the encryption key"). What is sealed is sealed under `current` and opened under either; a
/// keyed hash is made under `current` and recognised under either, so codes in flight,
/// recovery codes and a refresh retried across the switch keep working while `previous` is
/// configured. `repairminder keys rotate-encryption` re-seals what `previous` sealed.
public struct EncryptionKeys: Sendable {
    public let current: String
    public let previous: String?

    public init(current: String, previous: String? = nil) {
        self.current = current
        self.previous = previous == current ? nil : previous
    }

    /// `current`, then `previous`.
    var all: [String] { [current] + (previous.map { [$0] } ?? []) }
}
