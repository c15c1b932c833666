import Crypto
import Foundation

/// A curve of JOSE's curve-based signatures (ES256 on P-256, ES384 on P-384, ES512 on P-521,
/// EdDSA on Ed25519), with swift-crypto's key types for it: each operation on such a key
/// (JWK, sign, verify, PEM, the private key's check) is written once for the four.
struct SigningCurve: Sendable {
    /// The JWK `kty`: `EC` for the NIST curves, `OKP` for Ed25519 (RFC 8037).
    let keyType: String
    /// The JWK `crv`.
    let name: String
    /// The one algorithm a key on the curve signs with.
    let algorithm: JWSAlgorithm
    /// The bytes of one coordinate of an `EC` key (`x` and `y` each).
    let coordinateSize: Int
    /// swift-crypto's public key type for the curve.
    let publicKeyType: any (CurvePublicKey & Sendable).Type
    /// swift-crypto's private key type for the curve.
    let privateKeyType: any (CurvePrivateKey & Sendable).Type

    // kty, crv, alg, coordinate bytes, swift-crypto's public and private key types: a row a curve.
    static let p256 = Self("EC", "P-256", .es256, 32, P256.Signing.PublicKey.self, P256.Signing.PrivateKey.self)
    static let p384 = Self("EC", "P-384", .es384, 48, P384.Signing.PublicKey.self, P384.Signing.PrivateKey.self)
    static let p521 = Self("EC", "P-521", .es512, 66, P521.Signing.PublicKey.self, P521.Signing.PrivateKey.self)
    static let ed25519 = Self("OKP", "Ed25519", .edDSA, 32, Curve25519.Signing.PublicKey.self, Curve25519.Signing.PrivateKey.self)

    private init(
        _ keyType: String, _ name: String, _ algorithm: JWSAlgorithm, _ coordinateSize: Int,
        _ publicKeyType: any (CurvePublicKey & Sendable).Type, _ privateKeyType: any (CurvePrivateKey & Sendable).Type
    ) {
        (self.keyType, self.name, self.algorithm, self.coordinateSize) = (keyType, name, algorithm, coordinateSize)
        (self.publicKeyType, self.privateKeyType) = (publicKeyType, privateKeyType)
    }

    /// The four.
    static let all = [p256, p384, p521, ed25519]

    /// The curve of a JWK's `kty` and `crv`, if it is one of the four.
    static func of(_ jwk: JWK) -> SigningCurve? { all.first { $0.keyType == jwk.kty && $0.name == jwk.crv } }

    /// The curve `algorithm` signs on, if it signs on one.
    static func signing(_ algorithm: JWSAlgorithm) -> SigningCurve? { all.first { $0.algorithm == algorithm } }

    /// The JWK members of a public key: `x` and `y` of an `EC` key, `x` of an `OKP` key.
    var publicMembers: String { keyType == "EC" ? #""x"/"y""# : #""x""# }

    /// The public key a JWK of this curve holds, in swift-crypto's raw form (`x || y` for `EC`).
    /// - Throws: ``JOSEError`` when a member is missing, not base64url, or an `EC` coordinate
    ///   is not the curve's size.
    func publicKeyBytes(of jwk: JWK) throws -> Data {
        let x = try jwk.bytes("x", jwk.x)
        guard keyType == "EC" else { return x }
        let y = try jwk.bytes("y", jwk.y)
        guard x.count == coordinateSize, y.count == coordinateSize else {
            throw JOSEError(.invalidKey, "EC coordinates for \(name) must be \(coordinateSize) bytes each")
        }
        return x + y
    }

    /// The public JWK (without `kid` or `alg`) of a key whose raw form is `raw`.
    func publicJWK(_ raw: Data) -> JWK {
        guard keyType == "EC" else { return JWK(kty: keyType, crv: name, x: Base64URL.encode(raw)) }
        let half = raw.count / 2
        return JWK(kty: keyType, crv: name, x: Base64URL.encode(raw.prefix(half)), y: Base64URL.encode(raw.suffix(half)))
    }
}

/// What the package uses of swift-crypto's public signing key on a ``SigningCurve``. Not
/// `Sendable` itself, so that conforming CryptoKit's keys declares no conformance of theirs (an
/// SDK whose keys are not `Sendable` would refuse one made here); the keys are held as
/// `any CurvePublicKey & Sendable`.
protocol CurvePublicKey {
    static var curve: SigningCurve { get }
    init<D: ContiguousBytes>(rawRepresentation: D) throws
    var rawRepresentation: Data { get }
    /// Whether `signature`, in its JOSE form, signs `input`.
    func isValid(joseSignature signature: Data, for input: some DataProtocol) -> Bool
}

/// What the package uses of swift-crypto's private signing key on a ``SigningCurve`` (held,
/// as the public ones are, as `any CurvePrivateKey & Sendable`).
protocol CurvePrivateKey {
    associatedtype PublicKey: CurvePublicKey
    init<D: ContiguousBytes>(rawRepresentation: D) throws
    /// The key of a PEM private key.
    init(pem: String) throws
    var rawRepresentation: Data { get }
    var publicKey: PublicKey { get }
    /// A signature of `input` in its JOSE form.
    func joseSignature(for input: some DataProtocol) throws -> Data
}

extension CurvePublicKey {
    /// The key's curve.
    var curve: SigningCurve { Self.curve }
    /// The key as a public JWK, without `kid` or `alg`.
    var jwk: JWK { curve.publicJWK(rawRepresentation) }
}

/// An ECDSA signature of swift-crypto (CryptoKit); its raw form is JOSE's `r || s`.
protocol ECDSASignatureValue {
    init<D: DataProtocol>(rawRepresentation: D) throws
    var rawRepresentation: Data { get }
}

/// A public key of a NIST curve: its signatures are swift-crypto values whose raw form is JOSE's.
protocol ECDSAPublicKey: CurvePublicKey {
    associatedtype Signature: ECDSASignatureValue
    func isValidSignature<D: DataProtocol>(_ signature: Signature, for data: D) -> Bool
}

/// A private key of a NIST curve.
protocol ECDSAPrivateKey: CurvePrivateKey where PublicKey: ECDSAPublicKey {
    init(pemRepresentation: String) throws
    func signature<D: DataProtocol>(for data: D) throws -> PublicKey.Signature
}

extension ECDSAPublicKey {
    /// Whether `signature`, in JOSE's `r || s` form, signs `input`; a signature of the wrong
    /// size does not.
    func isValid(joseSignature signature: Data, for input: some DataProtocol) -> Bool {
        guard let signature = try? Signature(rawRepresentation: signature) else { return false }
        return isValidSignature(signature, for: input)
    }
}

extension ECDSAPrivateKey {
    init(pem: String) throws { try self.init(pemRepresentation: pem) }
    func joseSignature(for input: some DataProtocol) throws -> Data { try signature(for: input).rawRepresentation }
}

extension P256.Signing.ECDSASignature: ECDSASignatureValue {}
extension P384.Signing.ECDSASignature: ECDSASignatureValue {}
extension P521.Signing.ECDSASignature: ECDSASignatureValue {}
extension P256.Signing.PublicKey: ECDSAPublicKey { static var curve: SigningCurve { .p256 } }
extension P384.Signing.PublicKey: ECDSAPublicKey { static var curve: SigningCurve { .p384 } }
extension P521.Signing.PublicKey: ECDSAPublicKey { static var curve: SigningCurve { .p521 } }
extension P256.Signing.PrivateKey: ECDSAPrivateKey {}
extension P384.Signing.PrivateKey: ECDSAPrivateKey {}
extension P521.Signing.PrivateKey: ECDSAPrivateKey {}

extension Curve25519.Signing.PublicKey: CurvePublicKey {
    static var curve: SigningCurve { .ed25519 }
    func isValid(joseSignature signature: Data, for input: some DataProtocol) -> Bool { isValidSignature(signature, for: Data(input)) }
}

extension Curve25519.Signing.PrivateKey: CurvePrivateKey {
    /// CryptoKit has no PEM initializer for Curve25519 keys: the 32-byte seed of a PKCS #8
    /// Ed25519 key (RFC 8410 §7) is read here.
    init(pem: String) throws {
        let (label, der) = try PEM.firstBlock(in: pem)
        guard label == "PRIVATE KEY" else { throw DER.Error(reason: "a PEM \"\(label)\" is not a PKCS #8 private key") }
        var seed = DER.Reader(try DER.pkcs8PrivateKey(der, algorithm: DER.ed25519, named: "Ed25519"))
        try self.init(rawRepresentation: try seed.read(.octetString))
    }

    func joseSignature(for input: some DataProtocol) throws -> Data { try signature(for: Data(input)) }
}
