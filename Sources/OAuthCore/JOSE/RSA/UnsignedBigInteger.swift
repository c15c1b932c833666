/// A non-negative integer of any size: just enough arithmetic to complete an RSA private key's
/// CRT parameters (RFC 8017 §3.2) from `n`, `e`, `d`, `p` and `q`, the members a JWK must have.
///
/// Not constant-time: it runs once per key load, on the key's own factors, never on data an
/// attacker chooses, and each result is checked by the platform's RSA when the key is made.
struct UnsignedBigInteger: Equatable, Comparable, Sendable {
    /// Little-endian 32-bit limbs, with no zero limb at the top (zero has none).
    private(set) var limbs: [UInt32]

    init(limbs: [UInt32]) {
        self.limbs = limbs
        normalize()
    }

    /// The integer whose big-endian, unsigned bytes are `bytes` (leading zeros allowed).
    init(bigEndian bytes: some Collection<UInt8>) {
        var limbs = [UInt32](repeating: 0, count: (bytes.count + 3) / 4)
        for (index, byte) in bytes.reversed().enumerated() {
            limbs[index / 4] |= UInt32(byte) << (8 * UInt32(index % 4))
        }
        self.init(limbs: limbs)
    }

    init(_ value: UInt32) { self.init(limbs: [value]) }

    /// The big-endian, unsigned bytes, without leading zeros (`[0]` for zero).
    var bigEndianBytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(limbs.count * 4)
        for limb in limbs.reversed() {
            for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: limb >> UInt32(shift))) }
        }
        let first = bytes.firstIndex { $0 != 0 } ?? bytes.endIndex
        return bytes.isEmpty || first == bytes.endIndex ? [0] : Array(bytes[first...])
    }

    var isZero: Bool { limbs.isEmpty }

    /// The number of significant bits.
    var bitWidth: Int {
        guard let top = limbs.last else { return 0 }
        return (limbs.count - 1) * 32 + (32 - top.leadingZeroBitCount)
    }

    private mutating func normalize() {
        while let top = limbs.last, top == 0 { limbs.removeLast() }
    }

    static func < (lhs: Self, rhs: Self) -> Bool {
        if lhs.limbs.count != rhs.limbs.count { return lhs.limbs.count < rhs.limbs.count }
        for index in stride(from: lhs.limbs.count - 1, through: 0, by: -1) where lhs.limbs[index] != rhs.limbs[index] {
            return lhs.limbs[index] < rhs.limbs[index]
        }
        return false
    }

    /// `lhs - rhs`; the caller ensures `lhs >= rhs`.
    static func - (lhs: Self, rhs: Self) -> Self {
        precondition(lhs >= rhs, "UnsignedBigInteger subtraction below zero")
        var result = lhs.limbs
        var borrow: UInt64 = 0
        for index in result.indices {
            let subtrahend = UInt64(index < rhs.limbs.count ? rhs.limbs[index] : 0) + borrow
            let minuend = UInt64(result[index])
            if minuend >= subtrahend {
                result[index] = UInt32(minuend - subtrahend)
                borrow = 0
            } else {
                result[index] = UInt32(minuend + (1 << 32) - subtrahend)
                borrow = 1
            }
        }
        return Self(limbs: result)
    }

    static func + (lhs: Self, rhs: Self) -> Self {
        var result = [UInt32](repeating: 0, count: max(lhs.limbs.count, rhs.limbs.count) + 1)
        var carry: UInt64 = 0
        for index in 0..<(result.count - 1) {
            let sum =
                UInt64(index < lhs.limbs.count ? lhs.limbs[index] : 0)
                + UInt64(index < rhs.limbs.count ? rhs.limbs[index] : 0) + carry
            result[index] = UInt32(truncatingIfNeeded: sum)
            carry = sum >> 32
        }
        result[result.count - 1] = UInt32(carry)
        return Self(limbs: result)
    }

    static func * (lhs: Self, rhs: Self) -> Self {
        guard !lhs.isZero, !rhs.isZero else { return Self(limbs: []) }
        var result = [UInt32](repeating: 0, count: lhs.limbs.count + rhs.limbs.count)
        for (i, left) in lhs.limbs.enumerated() {
            var carry: UInt64 = 0
            for (j, right) in rhs.limbs.enumerated() {
                let product = UInt64(left) * UInt64(right) + UInt64(result[i + j]) + carry
                result[i + j] = UInt32(truncatingIfNeeded: product)
                carry = product >> 32
            }
            result[i + rhs.limbs.count] = UInt32(carry)
        }
        return Self(limbs: result)
    }

    private func shiftedLeft(by bits: Int) -> Self {
        guard !isZero, bits > 0 else { return self }
        let limbShift = bits / 32
        let bitShift = UInt32(bits % 32)
        var result = [UInt32](repeating: 0, count: limbs.count + limbShift + 1)
        for (index, limb) in limbs.enumerated() {
            result[index + limbShift] |= limb << bitShift
            if bitShift > 0 { result[index + limbShift + 1] |= limb >> (32 - bitShift) }
        }
        return Self(limbs: result)
    }

    private mutating func shiftRightByOne() {
        for index in limbs.indices {
            limbs[index] >>= 1
            if index + 1 < limbs.count { limbs[index] |= limbs[index + 1] << 31 }
        }
        normalize()
    }

    /// The quotient and remainder of `self / divisor` (shift and subtract: as many steps as the
    /// quotient has bits, which stays small in Euclid's algorithm).
    func quotientAndRemainder(dividingBy divisor: Self) -> (quotient: Self, remainder: Self) {
        precondition(!divisor.isZero, "UnsignedBigInteger division by zero")
        guard self >= divisor else { return (Self(limbs: []), self) }
        let shift = bitWidth - divisor.bitWidth
        var remainder = self
        var shifted = divisor.shiftedLeft(by: shift)
        var quotient = [UInt32](repeating: 0, count: shift / 32 + 1)
        for bit in stride(from: shift, through: 0, by: -1) {
            if remainder >= shifted {
                remainder = remainder - shifted
                quotient[bit / 32] |= 1 << UInt32(bit % 32)
            }
            shifted.shiftRightByOne()
        }
        return (Self(limbs: quotient), remainder)
    }

    static func % (lhs: Self, rhs: Self) -> Self { lhs.quotientAndRemainder(dividingBy: rhs).remainder }

    /// The inverse of `self` modulo `modulus` (extended Euclid, coefficients kept in `0..<modulus`),
    /// or `nil` when they share a factor.
    func inverse(modulo modulus: Self) -> Self? {
        guard modulus > Self(1) else { return nil }
        var (previousRemainder, remainder) = (modulus, self % modulus)
        var (previousCoefficient, coefficient) = (Self(limbs: []), Self(1))
        while !remainder.isZero {
            let (quotient, next) = previousRemainder.quotientAndRemainder(dividingBy: remainder)
            (previousRemainder, remainder) = (remainder, next)
            let product = (quotient * coefficient) % modulus
            let nextCoefficient =
                previousCoefficient >= product
                ? previousCoefficient - product : previousCoefficient + modulus - product
            (previousCoefficient, coefficient) = (coefficient, nextCoefficient)
        }
        return previousRemainder == Self(1) ? previousCoefficient : nil
    }
}
