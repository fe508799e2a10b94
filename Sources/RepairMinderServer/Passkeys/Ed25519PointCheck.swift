// Ed25519PointCheck.swift
//
// Checks the 32-byte encoding of an Ed25519 public key (RFC 8032 §5.1.3) and refuses keys that
// prove nothing: non-canonical encodings, bytes that are not a curve point, the identity and the
// other small-order points (signatures that verify against them can be made without any secret
// key), and mixed-order points (a valid point plus a torsion point), on which cofactored and
// cofactorless verifiers disagree. Only canonical encodings of points of order exactly L pass.
//
// Self-contained on purpose (no Foundation, no crypto library). Only public data is handled, so
// the code favours obviousness over speed and constant time.

/// Why an Ed25519 public key is refused.
enum Ed25519KeyProblem: Error, Equatable, Sendable {
    /// The key is not exactly 32 bytes.
    case wrongLength
    /// y ≥ p, or x = 0 with the sign bit set: not the one canonical encoding of a point.
    case nonCanonical
    /// No x satisfies the curve equation for the encoded y.
    case notOnCurve
    /// [8]P is the identity: P is the identity or one of the 7 other points of order 2, 4 or 8.
    case smallOrder
    /// [L]P is not the identity: P has a small-order (torsion) component.
    case notPrimeOrder
}

enum Ed25519PointCheck {
    /// Nil when `encoded` is a canonical encoding of a point of the prime-order subgroup (order L)
    /// other than the identity; else the reason.
    static func problem(_ encoded: [UInt8]) -> Ed25519KeyProblem? {
        guard encoded.count == 32 else { return .wrongLength }
        // Bit 255 is the sign (low bit) of x; the other 255 bits are y, little-endian.
        let xIsOdd = encoded[31] >> 7 == 1
        var yBytes = encoded
        yBytes[31] &= 0x7F
        guard let y = FieldElement(littleEndianBelowP: yBytes) else { return .nonCanonical }

        // The curve -x² + y² = 1 + d·x²·y² gives x² = (y² - 1) / (d·y² + 1). The denominator is
        // never zero: y² = -1/d has no solution because -1 is a square mod p and d is not.
        let ySquared = y.squared()
        let xSquared = (ySquared - .one) * (FieldElement.d * ySquared + .one).inverse()
        guard var x = xSquared.squareRoot() else { return .notOnCurve }
        // x = 0 has no negative, so a set sign bit would make a second encoding of the same point.
        if x == .zero && xIsOdd { return .nonCanonical }
        // Pick the root with the encoded sign (RFC 8032 §5.1.3 step 4). P and -P have the same
        // order, so this does not change the verdict; it keeps `point` the point actually encoded.
        if x.isOdd != xIsOdd { x = .zero - x }

        let point = EdwardsPoint(x: x, y: y)
        // The group has order 8·L. Multiplying by the cofactor 8 kills exactly the torsion points.
        if point.doubled().doubled().doubled().isIdentity { return .smallOrder }
        // A point of the prime-order subgroup is killed by L; a mixed-order point is not.
        if !point.multiplied(by: groupOrderL).isIdentity { return .notPrimeOrder }
        return nil
    }

    /// L = 2^252 + 27742317777372353535851937790883648493 (limbs least significant first).
    private static let groupOrderL =
        Limbs(0x5812_631A_5CF5_D3ED, 0x14DE_F9DE_A2F7_9CD6, 0, 0x1000_0000_0000_0000)
}

/// Four 64-bit limbs, least significant first: a 256-bit unsigned integer. SIMD4 is used only
/// as a fixed-size, allocation-free array (indexing); no vector arithmetic is involved.
private typealias Limbs = SIMD4<UInt64>

/// The bits of a 256-bit number, most significant first, for square-and-multiply and
/// double-and-add. Leading zero bits are kept; they only cost a few extra (harmless) steps.
private func bitsMostSignificantFirst(_ limbs: Limbs) -> [Bool] {
    (0..<256).reversed().map { bit in (limbs[bit / 64] >> UInt64(bit % 64)) & 1 == 1 }
}

/// a + b mod 2^256, and whether it carried out (a + b ≥ 2^256).
private func addLimbs(_ a: Limbs, _ b: Limbs) -> (sum: Limbs, carry: Bool) {
    var sum = Limbs()
    var carry = false
    for i in 0..<4 {
        let (partial, overflow1) = a[i].addingReportingOverflow(b[i])
        let (total, overflow2) = partial.addingReportingOverflow(carry ? 1 : 0)
        sum[i] = total
        carry = overflow1 || overflow2  // at most one of them can happen
    }
    return (sum, carry)
}

/// a - b mod 2^256, and whether it borrowed (a < b).
private func subtractLimbs(_ a: Limbs, _ b: Limbs) -> (difference: Limbs, borrow: Bool) {
    var difference = Limbs()
    var borrow = false
    for i in 0..<4 {
        let (partial, underflow1) = a[i].subtractingReportingOverflow(b[i])
        let (total, underflow2) = partial.subtractingReportingOverflow(borrow ? 1 : 0)
        difference[i] = total
        borrow = underflow1 || underflow2
    }
    return (difference, borrow)
}

/// An element of GF(p), p = 2^255 - 19, always kept fully reduced (0 ≤ value < p), so that
/// equality of values is equality of limbs.
private struct FieldElement: Equatable, Sendable {
    let limbs: Limbs

    static let p = Limbs(0xFFFF_FFFF_FFFF_FFED, .max, .max, 0x7FFF_FFFF_FFFF_FFFF)
    static let zero = FieldElement(0)
    static let one = FieldElement(1)
    /// The curve constant d = -121665/121666, computed from its definition rather than transcribed.
    static let d = zero - FieldElement(121_665) * FieldElement(121_666).inverse()
    /// √-1 = 2^((p-1)/4): 2 is not a square mod p, so 2^((p-1)/2) = -1. (p-1)/4 = 2^253 - 5.
    static let sqrtMinusOne =
        FieldElement(2).power(Limbs(0xFFFF_FFFF_FFFF_FFFB, .max, .max, 0x1FFF_FFFF_FFFF_FFFF))

    private init(reduced limbs: Limbs) { self.limbs = limbs }
    init(_ small: UInt64) { self.init(reduced: Limbs(small, 0, 0, 0)) }

    /// Reads 32 little-endian bytes; nil unless the value is below p (the canonical range).
    init?(littleEndianBelowP bytes: [UInt8]) {
        var limbs = Limbs()
        for (i, byte) in bytes.enumerated() { limbs[i / 8] |= UInt64(byte) << UInt64(8 * (i % 8)) }
        guard subtractLimbs(limbs, Self.p).borrow else { return nil }
        self.init(reduced: limbs)
    }

    var isOdd: Bool { limbs[0] & 1 == 1 }

    /// Brings a value below 2p into [0, p) by subtracting p when that does not go negative.
    private static func subtractingPIfPossible(_ value: Limbs) -> FieldElement {
        let (difference, borrow) = subtractLimbs(value, p)
        return FieldElement(reduced: borrow ? value : difference)
    }

    static func + (a: FieldElement, b: FieldElement) -> FieldElement {
        subtractingPIfPossible(addLimbs(a.limbs, b.limbs).sum)  // a + b < 2p < 2^256: no carry out
    }

    static func - (a: FieldElement, b: FieldElement) -> FieldElement {
        let (difference, borrow) = subtractLimbs(a.limbs, b.limbs)
        // On borrow the limbs hold a - b + 2^256; adding p and dropping the carry gives a - b + p.
        return FieldElement(reduced: borrow ? addLimbs(difference, p).sum : difference)
    }

    static func * (a: FieldElement, b: FieldElement) -> FieldElement {
        // Schoolbook 256×256 → 512-bit product. Each step computes t + lo + carry + 2^64·hi
        // ≤ (2^64-1) + (2^64-1)² + (2^64-1) = 2^128 - 1, so the new carry always fits in 64 bits.
        var product = SIMD8<UInt64>()
        for i in 0..<4 {
            var carry: UInt64 = 0
            for j in 0..<4 {
                let (hi, lo) = a.limbs[i].multipliedFullWidth(by: b.limbs[j])
                let (partial, overflow1) = product[i + j].addingReportingOverflow(lo)
                let (total, overflow2) = partial.addingReportingOverflow(carry)
                product[i + j] = total
                carry = hi + (overflow1 ? 1 : 0) + (overflow2 ? 1 : 0)
            }
            product[i + 4] = carry
        }
        // Fold the high half using 2^256 = 2·2^255 ≡ 2·19 = 38 (mod p): low + 38·high < 39·2^256,
        // so it fits in four limbs plus a final carry of at most 38 (same bound argument as above).
        var folded = Limbs()
        var carry: UInt64 = 0
        for i in 0..<4 {
            let (hi, lo) = product[i + 4].multipliedFullWidth(by: 38)
            let (partial, overflow1) = product[i].addingReportingOverflow(lo)
            let (total, overflow2) = partial.addingReportingOverflow(carry)
            folded[i] = total
            carry = hi + (overflow1 ? 1 : 0) + (overflow2 ? 1 : 0)
        }
        // Fold everything at or above bit 255 (a value of at most 77) using 2^255 ≡ 19. The result
        // is below 2^255 + 19·77 < 2p, so one conditional subtraction of p makes it canonical.
        let high = carry << 1 | folded[3] >> 63
        folded[3] &= 0x7FFF_FFFF_FFFF_FFFF
        return subtractingPIfPossible(addLimbs(folded, Limbs(19 * high, 0, 0, 0)).sum)
    }

    func squared() -> FieldElement { self * self }

    /// self^exponent by square-and-multiply.
    func power(_ exponent: Limbs) -> FieldElement {
        var result = FieldElement.one
        for bit in bitsMostSignificantFirst(exponent) {
            result = result.squared()
            if bit { result = result * self }
        }
        return result
    }

    /// 1/self by Fermat: self^(p-2), with p - 2 = 2^255 - 21. (Maps 0 to 0; never used on 0.)
    func inverse() -> FieldElement {
        power(Limbs(0xFFFF_FFFF_FFFF_FFEB, .max, .max, 0x7FFF_FFFF_FFFF_FFFF))
    }

    /// A square root of self, or nil when self is not a square (RFC 8032 §5.1.3 step 3).
    /// As p ≡ 5 (mod 8), c = self^((p+3)/8) satisfies c² = ±self whenever self is a square;
    /// when c² = -self, c·√-1 is the root. Exponent (p+3)/8 = 2^252 - 2.
    func squareRoot() -> FieldElement? {
        let candidate = power(Limbs(0xFFFF_FFFF_FFFF_FFFE, .max, .max, 0x0FFF_FFFF_FFFF_FFFF))
        let candidateSquared = candidate.squared()
        if candidateSquared == self { return candidate }
        if candidateSquared == .zero - self { return candidate * .sqrtMinusOne }
        return nil
    }
}

/// A point of edwards25519, -x² + y² = 1 + d·x²·y², in extended coordinates (X : Y : Z : T)
/// with x = X/Z, y = Y/Z, x·y = T/Z (RFC 8032 §5.1.4).
private struct EdwardsPoint: Sendable {
    let X, Y, Z, T: FieldElement

    static let identity = EdwardsPoint(X: .zero, Y: .one, Z: .one, T: .zero)

    private init(X: FieldElement, Y: FieldElement, Z: FieldElement, T: FieldElement) {
        (self.X, self.Y, self.Z, self.T) = (X, Y, Z, T)
    }

    /// The point with affine coordinates (x, y), which must be on the curve.
    init(x: FieldElement, y: FieldElement) { self.init(X: x, Y: y, Z: .one, T: x * y) }

    /// The identity is (0, 1): X = 0 and Y = Z (Z is never 0 for a curve point).
    var isIdentity: Bool { X == .zero && Y == Z }

    /// The addition formulas of RFC 8032 §5.1.4 (same letter names). With a = -1 a square and d a
    /// non-square they are complete: correct for every pair of curve points, including P + P and
    /// the identity, which is why doubling simply reuses them.
    static func + (P: EdwardsPoint, Q: EdwardsPoint) -> EdwardsPoint {
        let A = (P.Y - P.X) * (Q.Y - Q.X)
        let B = (P.Y + P.X) * (Q.Y + Q.X)
        let C = (FieldElement.d + FieldElement.d) * P.T * Q.T
        let D = (P.Z + P.Z) * Q.Z
        let (E, F, G, H) = (B - A, D - C, D + C, B + A)
        return EdwardsPoint(X: E * F, Y: G * H, Z: F * G, T: E * H)
    }

    func doubled() -> EdwardsPoint { self + self }

    /// [scalar]self by double-and-add.
    func multiplied(by scalar: Limbs) -> EdwardsPoint {
        var result = EdwardsPoint.identity
        for bit in bitsMostSignificantFirst(scalar) {
            result = result.doubled()
            if bit { result = result + self }
        }
        return result
    }
}
