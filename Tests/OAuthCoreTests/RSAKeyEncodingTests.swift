import Crypto
import CryptoExtras
import Foundation
import Testing

@testable import OAuthCore

/// The DER that RSA keys are made from on every platform (the Security framework reads it on
/// Apple platforms), checked against what nobody here wrote: BoringSSL's encoding of the same
/// keys and the CRT members RFC 7515 publishes.
@Suite("RSA key encoding, against BoringSSL and RFC 7515")
struct RSAKeyEncodingTests {
    /// The nine integers of a PKCS #1 RSAPrivateKey.
    private func members(_ der: Data) throws -> [Data] {
        var outer = DER.Reader(der)
        var sequence = DER.Reader(try outer.read(.sequence))
        var members: [Data] = []
        while !sequence.isAtEnd { members.append(try sequence.readInteger()) }
        return members
    }

    private func bytes(_ jwk: JWK, _ member: String?) throws -> Data {
        let text = try #require(member)
        return try #require(Base64URL.decode(text))
    }

    @Test func rfc7515KeyGetsThePublishedCRTMembersAndBoringSSLsEncoding() throws {
        let jwk = try #require(try vectors("rfc7515")["A.2"]).jwk()
        let (n, e, d, p, q) = (
            try bytes(jwk, jwk.n), try bytes(jwk, jwk.e), try bytes(jwk, jwk.d), try bytes(jwk, jwk.p), try bytes(jwk, jwk.q)
        )
        let der = try RSAKeyEncoding.privateKeyDER(n: n, e: e, d: d, p: p, q: q)
        let ours = try members(der)
        #expect(ours.count == 9)
        #expect(ours[6] == (try bytes(jwk, jwk.dp)))
        #expect(ours[7] == (try bytes(jwk, jwk.dq)))
        #expect(ours[8] == (try bytes(jwk, jwk.qi)))
        #expect(der == (try _RSA.Signing.PrivateKey(n: n, e: e, d: d, p: p, q: q)).derRepresentation)
    }

    @Test(arguments: [2048, 2048, 3072])
    func generatedKeysEncodeAsBoringSSLEncodesThem(bits: Int) throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .init(bitCount: bits))
        let boring = try members(key.derRepresentation)
        let der = try RSAKeyEncoding.privateKeyDER(n: boring[1], e: boring[2], d: boring[3], p: boring[4], q: boring[5])
        #expect(der == key.derRepresentation)

        let primitives = try key.publicKey.getKeyPrimitives()
        let components = RSAKeyEncoding.PublicComponents(modulus: primitives.modulus, exponent: primitives.publicExponent)
        #expect(try RSAKeyEncoding.publicKeyDER(components) == key.publicKey.pkcs1DERRepresentation)
        #expect(try RSAKeyEncoding.publicComponents(fromPublicKeyDER: key.publicKey.pkcs1DERRepresentation) == components)
        #expect(try RSAKeyEncoding.publicComponents(fromPrivateKeyDER: key.derRepresentation) == components)

        // PEM in both forms apps ship: PKCS #1 and PKCS #8.
        #expect(try RSAKeyEncoding.privateKeyDER(pem: key.pemRepresentation) == key.derRepresentation)
        #expect(try RSAKeyEncoding.privateKeyDER(pem: key.pkcs8PEMRepresentation) == key.derRepresentation)
    }

    @Test func aJWKWhoseMembersDoNotBelongTogetherIsRefused() throws {
        var jwk = try #require(try vectors("rfc7515")["A.2"]).jwk()
        let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let other = try members(rsa.derRepresentation)
        // p and q of another key.
        var swapped = jwk
        swapped.p = Base64URL.encode(other[4])
        expectJOSE(.invalidKey) { _ = try JWSSigningKey(jwk: swapped) }
        // A d that is not the private exponent: caught when the platform's RSA reads the key.
        var d = try bytes(jwk, jwk.d)
        d[d.count - 1] ^= 0x02
        jwk.d = Base64URL.encode(d)
        expectJOSE(.invalidKey) { _ = try JWSSigningKey(jwk: jwk) }
    }

    @Test func smallKeysAndOtherPEMsAreRefusedWithTypedErrors() throws {
        let small = try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024))
        let error = expectJOSE(.invalidKey) { _ = try JWSSigningKey(pem: small.pemRepresentation, algorithm: .rs256) }
        #expect(error?.message.contains("1024 bits is too small") == true)
        let smallPublic = try small.publicKey.getKeyPrimitives()
        expectJOSE(.invalidKey) {
            _ = try JWSVerificationKey(
                jwk: JWK(kty: "RSA", n: Base64URL.encode(smallPublic.modulus), e: Base64URL.encode(smallPublic.publicExponent)))
        }

        let ec = P256.Signing.PrivateKey()
        let notRSA = expectJOSE(.invalidKey) { _ = try RSAKeyEncoding.privateKeyDER(pem: ec.pemRepresentation) }
        #expect(notRSA?.message.contains("not an RSA key") == true)
        let encrypted = "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMAA=\n-----END ENCRYPTED PRIVATE KEY-----"
        let refused = expectJOSE(.invalidKey) { _ = try RSAKeyEncoding.privateKeyDER(pem: encrypted) }
        #expect(refused?.message.contains("encrypted") == true)
        expectJOSE(.invalidKey) {
            _ = try RSAKeyEncoding.privateKeyDER(pem: "-----BEGIN PRIVATE KEY-----\nnot base64!\n-----END PRIVATE KEY-----")
        }
        expectJOSE(.invalidKey) { _ = try RSAKeyEncoding.privateKeyDER(pem: "-----BEGIN PRIVATE KEY-----\nMAA=\n") }
    }

    @Test func damagedDERNeverTrapsAndIsRefused() throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let der = key.derRepresentation
        var generator = SystemRandomNumberGenerator()
        // Every prefix, and random single-byte damage: each is refused or read, never a trap.
        for length in stride(from: 0, to: der.count, by: 7) {
            #expect(throws: JOSEError.self) { _ = try RSAKeyEncoding.publicComponents(fromPrivateKeyDER: der.prefix(length)) }
        }
        for _ in 0..<300 {
            var damaged = der
            damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            _ = try? RSAKeyEncoding.publicComponents(fromPrivateKeyDER: damaged)
            _ = try? RSAKeyEncoding.publicComponents(fromPublicKeyDER: damaged)
        }
        // Lengths DER forbids: indefinite, non-minimal, longer than the input.
        for bad in [
            Data([0x30, 0x80, 0x02, 0x01, 0x00, 0x00, 0x00]), Data([0x30, 0x81, 0x03, 0x02, 0x01, 0x00]), Data([0x30, 0x05, 0x02, 0x01]),
        ] {
            #expect(throws: JOSEError.self) { _ = try RSAKeyEncoding.publicComponents(fromPublicKeyDER: bad) }
        }
    }
}

@Suite("UnsignedBigInteger")
struct UnsignedBigIntegerTests {
    private func big(_ value: UInt64) -> UnsignedBigInteger {
        UnsignedBigInteger(bigEndian: withUnsafeBytes(of: value.bigEndian) { Array($0) })
    }

    @Test func arithmeticAgreesWithUInt64() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let a = UInt64.random(in: 0...UInt64(UInt32.max) * 4, using: &generator)
            let b = UInt64.random(in: 1...UInt64(UInt32.max) * 2, using: &generator)
            #expect(big(a) + big(b) == big(a + b))
            #expect(big(a) * big(b % 5000) == big(a * (b % 5000)))
            let (q, r) = big(a).quotientAndRemainder(dividingBy: big(b))
            #expect(q == big(a / b) && r == big(a % b))
            if a >= b { #expect(big(a) - big(b) == big(a - b)) }
            #expect((big(a) < big(b)) == (a < b))
        }
        #expect(big(0).bigEndianBytes == [0])
        #expect(big(0x0102).bigEndianBytes == [1, 2])
        #expect(big(1 << 40).bitWidth == 41)
    }

    @Test func inverseIsAnInverse() {
        // Small primes, and a modulus that shares a factor.
        for modulus: UInt64 in [7, 65_537, 4_294_967_311] {
            for value: UInt64 in [1, 2, 3, 1000, modulus - 1] {
                let inverse = big(value).inverse(modulo: big(modulus))
                #expect(inverse.map { ($0 * big(value)) % big(modulus) } == big(1))
            }
        }
        #expect(big(6).inverse(modulo: big(9)) == nil)
        #expect(big(5).inverse(modulo: big(1)) == nil)
    }
}
