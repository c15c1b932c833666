import Crypto
import Foundation

/// A NIST curve of JOSE's ECDSA algorithms (ES256 on P-256, ES384 on P-384, ES512 on P-521),
/// with swift-crypto's key types for it: each EC operation is written once for the three.
struct ECCurve: Sendable {
    /// The JWK `crv`.
    let name: String
    /// The one algorithm a key on the curve signs with.
    let algorithm: JWSAlgorithm
    /// The bytes of one coordinate (and of each half of a signature).
    let coordinateSize: Int
    /// swift-crypto's public key type for the curve.
    let publicKeyType: any (ECPublicKey & Sendable).Type
    /// swift-crypto's private key type for the curve.
    let privateKeyType: any (ECPrivateKey & Sendable).Type

    static let p256 = ECCurve(
        name: "P-256", algorithm: .es256, coordinateSize: 32, publicKeyType: P256.Signing.PublicKey.self, privateKeyType: P256.Signing.PrivateKey.self)
    static let p384 = ECCurve(
        name: "P-384", algorithm: .es384, coordinateSize: 48, publicKeyType: P384.Signing.PublicKey.self, privateKeyType: P384.Signing.PrivateKey.self)
    static let p521 = ECCurve(
        name: "P-521", algorithm: .es512, coordinateSize: 66, publicKeyType: P521.Signing.PublicKey.self, privateKeyType: P521.Signing.PrivateKey.self)

    /// The three.
    static let all = [p256, p384, p521]

    /// The curve a JWK's `crv` names, if it is one of the three.
    static func named(_ name: String?) -> ECCurve? { all.first { $0.name == name } }

    /// The curve `algorithm` signs on, if it is an ECDSA algorithm.
    static func signing(_ algorithm: JWSAlgorithm) -> ECCurve? { all.first { $0.algorithm == algorithm } }
}

/// An ECDSA signature of swift-crypto (CryptoKit); its raw form is JOSE's `r || s`.
protocol ECDSASignatureValue {
    init<D: DataProtocol>(rawRepresentation: D) throws
    var rawRepresentation: Data { get }
}

/// What the package uses of swift-crypto's public signing key of a NIST curve: its own API,
/// named once. Not `Sendable` itself, so that conforming CryptoKit's keys declares no
/// conformance of theirs (an SDK whose keys are not `Sendable` would refuse one made here);
/// the keys are held as `any ECPublicKey & Sendable`.
protocol ECPublicKey {
    associatedtype Signature: ECDSASignatureValue
    static var curve: ECCurve { get }
    init<D: ContiguousBytes>(rawRepresentation: D) throws
    var rawRepresentation: Data { get }
    func isValidSignature<D: DataProtocol>(_ signature: Signature, for data: D) -> Bool
}

/// What the package uses of swift-crypto's private signing key of a NIST curve (held, as the
/// public ones are, as `any ECPrivateKey & Sendable`).
protocol ECPrivateKey {
    associatedtype PublicKey: ECPublicKey
    init<D: ContiguousBytes>(rawRepresentation: D) throws
    init(pemRepresentation: String) throws
    var rawRepresentation: Data { get }
    var publicKey: PublicKey { get }
    func signature<D: DataProtocol>(for data: D) throws -> PublicKey.Signature
}

extension ECPublicKey {
    /// The key's curve.
    var curve: ECCurve { Self.curve }

    /// Whether `signature`, in JOSE's `r || s` form, signs `input`; a signature of the wrong
    /// size does not.
    func isValid(joseSignature signature: Data, for input: some DataProtocol) -> Bool {
        guard let signature = try? Signature(rawRepresentation: signature) else { return false }
        return isValidSignature(signature, for: input)
    }

    /// The key as a public JWK, without `kid` or `alg`.
    var jwk: JWK {
        let point = rawRepresentation
        let half = point.count / 2
        return JWK(kty: "EC", crv: curve.name, x: Base64URL.encode(point.prefix(half)), y: Base64URL.encode(point.suffix(half)))
    }
}

extension ECPrivateKey {
    /// A signature of `input` in JOSE's `r || s` form.
    func joseSignature(for input: some DataProtocol) throws -> Data { try signature(for: input).rawRepresentation }
}

extension P256.Signing.ECDSASignature: ECDSASignatureValue {}
extension P384.Signing.ECDSASignature: ECDSASignatureValue {}
extension P521.Signing.ECDSASignature: ECDSASignatureValue {}
extension P256.Signing.PublicKey: ECPublicKey { static var curve: ECCurve { .p256 } }
extension P384.Signing.PublicKey: ECPublicKey { static var curve: ECCurve { .p384 } }
extension P521.Signing.PublicKey: ECPublicKey { static var curve: ECCurve { .p521 } }
extension P256.Signing.PrivateKey: ECPrivateKey {}
extension P384.Signing.PrivateKey: ECPrivateKey {}
extension P521.Signing.PrivateKey: ECPrivateKey {}
