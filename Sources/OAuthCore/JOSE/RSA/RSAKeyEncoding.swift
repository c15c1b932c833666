import Foundation

/// The DER forms of RSA keys that every platform's RSA reads (RFC 8017 appendix A.1): PKCS #1
/// `RSAPublicKey` and `RSAPrivateKey`, made from JWK members or unwrapped from a PEM file
/// (PKCS #1, or PKCS #8 `PrivateKeyInfo`, RFC 5208). Portable, so it is tested on Linux against
/// BoringSSL's own encoding; the Security framework takes the same bytes on Apple platforms.
enum RSAKeyEncoding {
    /// The public members of an RSA key, as unsigned big-endian bytes without leading zeros.
    struct PublicComponents: Equatable, Sendable {
        var modulus: Data
        var exponent: Data
    }

    /// RFC 7518 §3.3: RS256 and PS256 keys have a modulus of 2048 bits or more.
    static let minimumModulusBits = 2048

    /// PKCS #1 `RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }`.
    static func publicKeyDER(_ components: PublicComponents) throws -> Data {
        try checkSize(components.modulus)
        return DER.sequence([DER.integer(components.modulus), DER.integer(components.exponent)])
    }

    /// Reads a PKCS #1 `RSAPublicKey`.
    static func publicComponents(fromPublicKeyDER der: Data) throws -> PublicComponents {
        try reading("RSA public key") {
            var outer = DER.Reader(der)
            var sequence = DER.Reader(try outer.read(.sequence))
            let components = PublicComponents(modulus: try sequence.readInteger(), exponent: try sequence.readInteger())
            guard outer.isAtEnd, sequence.isAtEnd else { throw DER.Error(reason: "it has trailing bytes") }
            return components
        }
    }

    /// PKCS #1 `RSAPrivateKey` (two-prime, version 0) from the members a JWK must have
    /// (RFC 7518 §6.3.2: `n`, `e`, `d`, `p`, `q`); the CRT parameters `dP`, `dQ` and `qInv` are
    /// computed from them, as BoringSSL does, so a JWK's own `dp`, `dq` and `qi` are never trusted.
    /// - Throws: ``JOSEError`` with [`JOSEError.Code.invalidKey`](doc:ErrorCode/invalidKey-3f3y7) when `p × q ≠ n` or `q` has no inverse modulo `p`.
    static func privateKeyDER(n: Data, e: Data, d: Data, p: Data, q: Data) throws -> Data {
        try checkSize(n)
        let one = UnsignedBigInteger(1)
        let (bigN, bigD, bigP, bigQ) = (
            UnsignedBigInteger(bigEndian: n), UnsignedBigInteger(bigEndian: d),
            UnsignedBigInteger(bigEndian: p), UnsignedBigInteger(bigEndian: q)
        )
        guard bigP > one, bigQ > one, bigP * bigQ == bigN else {
            throw invalid("the RSA JWK's \"p\" and \"q\" are not the factors of its \"n\"")
        }
        guard let qInverse = bigQ.inverse(modulo: bigP) else {
            throw invalid("the RSA JWK's \"q\" has no inverse modulo \"p\"")
        }
        let members = [
            Data([0]), n, e, d, p, q,
            Data((bigD % (bigP - one)).bigEndianBytes), Data((bigD % (bigQ - one)).bigEndianBytes),
            Data(qInverse.bigEndianBytes),
        ]
        return DER.sequence(members.map(DER.integer))
    }

    /// The public members of a PKCS #1 `RSAPrivateKey`, checking that it is one (version 0, the
    /// nine integers) and large enough.
    static func publicComponents(fromPrivateKeyDER der: Data) throws -> PublicComponents {
        let components = try reading("RSA private key") {
            var outer = DER.Reader(der)
            var sequence = DER.Reader(try outer.read(.sequence))
            guard try sequence.readInteger() == Data([0]) else {
                throw invalid("only two-prime RSA private keys (version 0) are supported")
            }
            let components = PublicComponents(modulus: try sequence.readInteger(), exponent: try sequence.readInteger())
            for _ in 0..<6 { _ = try sequence.readInteger() }
            guard outer.isAtEnd, sequence.isAtEnd else { throw DER.Error(reason: "it has trailing bytes") }
            return components
        }
        try checkSize(components.modulus)
        return components
    }

    /// The PKCS #1 `RSAPrivateKey` in a PEM file: `RSA PRIVATE KEY` (PKCS #1) or `PRIVATE KEY`
    /// (PKCS #8 with the `rsaEncryption` algorithm). Encrypted keys are refused.
    static func privateKeyDER(pem: String) throws -> Data {
        try reading("PEM private key") { try unwrap(pem: pem) }
    }

    private static func unwrap(pem: String) throws -> Data {
        let (label, der) = try PEM.firstBlock(in: pem)
        switch label {
        case "RSA PRIVATE KEY":
            return der
        case "PRIVATE KEY":
            return try DER.pkcs8PrivateKey(der, algorithm: DER.rsaEncryption, named: "RSA")
        case "ENCRYPTED PRIVATE KEY":
            throw invalid("the PEM private key is encrypted; decrypt it first (openssl pkcs8 -topk8 -nocrypt)")
        default:
            throw invalid("a PEM \"\(label)\" is not an RSA private key")
        }
    }

    private static func checkSize(_ modulus: Data) throws {
        let bits = UnsignedBigInteger(bigEndian: modulus).bitWidth
        guard bits >= minimumModulusBits else {
            throw invalid("an RSA key of \(bits) bits is too small: RS256 and PS256 need 2048 bits or more (RFC 7518 §3.3)")
        }
    }

    static func invalid(_ reason: String) -> JOSEError { JOSEError(.invalidKey, reason) }

    /// The key the platform's `make` imports from PKCS #1 `der` (a private key's or a public
    /// key's), once its members pass this package's checks; a refusal of the platform's is a
    /// ``JOSEError`` too.
    static func importing<Key>(_ der: Data, isPrivate: Bool, _ make: (Data) throws -> Key) throws -> Key {
        _ = try isPrivate ? publicComponents(fromPrivateKeyDER: der) : publicComponents(fromPublicKeyDER: der)
        do { return try make(der) } catch let error as JOSEError { throw error } catch {
            throw invalid("not a valid RSA \(isPrivate ? "private" : "public") key: \(error)")
        }
    }

    /// Runs `body`, turning DER that cannot be read into a ``JOSEError`` naming `what`.
    private static func reading<T>(_ what: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as DER.Error {
            throw invalid("the \(what) cannot be read: \(error.reason)")
        }
    }
}
