import Crypto
import Foundation

/// A public key (or shared secret) that verifies JWS signatures.
///
/// Each key verifies only the algorithms of its own type: an RSA or EC public key is
/// never used as an HMAC secret, which rules out algorithm-confusion attacks by construction.
public struct JWSVerificationKey: Sendable {
    enum Material: Sendable {
        case curve(any CurvePublicKey & Sendable)
        case rsa(RSAPublicKey)
        case hmac(SymmetricKey)
    }

    let material: Material
    /// The algorithm the key is restricted to by its JWK `alg`, if it had one.
    public let restrictedAlgorithm: JWSAlgorithm?
    /// The key id, if known.
    public let keyID: String?

    /// A P-256 public key (ES256).
    public init(_ key: P256.Signing.PublicKey, keyID: String? = nil) {
        self.init(.curve(key), keyID: keyID)
    }

    /// An Ed25519 public key (EdDSA).
    public init(_ key: Curve25519.Signing.PublicKey, keyID: String? = nil) {
        self.init(.curve(key), keyID: keyID)
    }

    /// A shared secret for HS256.
    public init(hmacSecret: some DataProtocol, keyID: String? = nil) {
        self.init(.hmac(SymmetricKey(data: Data(hmacSecret))), keyID: keyID)
    }

    init(_ material: Material, keyID: String?, restrictedAlgorithm: JWSAlgorithm? = nil) {
        self.material = material
        self.keyID = keyID
        self.restrictedAlgorithm = restrictedAlgorithm
    }

    /// A verification key from a JWK (private members, if present, are ignored except `k`).
    /// - Throws: ``JOSEError`` for an unknown key type or curve, members that are missing,
    ///   not base64url, or not a point on the curve, or an `alg` this package does not support.
    public init(jwk: JWK) throws {
        let restricted = try jwk.alg.map(JWSAlgorithm.parse)
        let material: Material
        do {
            if let curve = SigningCurve.of(jwk) {
                material = .curve(try curve.publicKeyType.init(rawRepresentation: try curve.publicKeyBytes(of: jwk)))
            } else if jwk.kty == "RSA" {
                material = .rsa(try RSAPublicKey(modulus: try jwk.bytes("n", jwk.n), exponent: try jwk.bytes("e", jwk.e)))
            } else if jwk.kty == "oct" {
                material = .hmac(SymmetricKey(data: try jwk.bytes("k", jwk.k)))
            } else {
                throw JOSEError(.unsupportedKeyType, "unsupported JWK kty \"\(jwk.kty)\" crv \"\(jwk.crv ?? "")\"")
            }
        } catch let error as JOSEError {
            throw error
        } catch {
            throw JOSEError(.invalidKey, "the \(jwk.kty) JWK is not a valid public key: \(error)")
        }
        self.init(material, keyID: jwk.kid, restrictedAlgorithm: restricted)
        if let restricted, !fits(restricted) {
            throw JOSEError(.algorithmKeyMismatch, "JWK of kty \(jwk.kty) declares alg \(restricted.rawValue)")
        }
    }

    /// Whether this key can verify signatures made with `algorithm`.
    public func fits(_ algorithm: JWSAlgorithm) -> Bool {
        if let restrictedAlgorithm, restrictedAlgorithm != algorithm { return false }
        switch (material, algorithm) {
        case (.curve(let key), _):
            return key.curve.algorithm == algorithm
        case (.rsa, .rs256), (.rsa, .ps256), (.hmac, .hs256):
            return true
        default:
            return false
        }
    }

    /// The algorithm a key of this type signs with when none is named.
    var defaultAlgorithm: JWSAlgorithm {
        if let restrictedAlgorithm { return restrictedAlgorithm }
        switch material {
        case .curve(let key): return key.curve.algorithm
        case .rsa: return .rs256
        case .hmac: return .hs256
        }
    }

    /// Checks `signature` over `input` for `algorithm`.
    /// - Throws: ``JOSEError`` with [`JOSEError.Code.algorithmKeyMismatch`](doc:ErrorCode/algorithmKeyMismatch) when the key does not fit
    ///   the algorithm, or [`JOSEError.Code.invalidSignature`](doc:ErrorCode/invalidSignature) when the signature is wrong.
    public func verify(signature: Data, input: some DataProtocol, algorithm: JWSAlgorithm) throws {
        guard fits(algorithm) else {
            throw JOSEError(.algorithmKeyMismatch, "\(algorithm.rawValue) cannot be verified with a \(keyDescription)")
        }
        let valid: Bool
        switch material {
        case .curve(let key):
            valid = key.isValid(joseSignature: signature, for: input)
        case .hmac(let key):
            valid = HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: input, using: key)
        case .rsa(let key):
            valid = key.isValidSignature(signature, for: input, padding: algorithm == .ps256 ? .pss : .pkcs1v15)
        }
        guard valid else {
            throw JOSEError(.invalidSignature, "the \(algorithm.rawValue) signature does not verify")
        }
    }

    private var keyDescription: String {
        switch material {
        case .curve(let key): return key.curve.name + " key"
        case .rsa: return "RSA key"
        case .hmac: return "shared secret"
        }
    }
}
