import Crypto
import Foundation

/// A private (or secret) key that signs JWS with one algorithm.
///
/// All cryptography comes from swift-crypto (CryptoKit on Apple platforms), and RSA from the
/// platform's RSA (the internal `RSAPrivateKey`); this type only chooses the primitive, converts ECDSA
/// signatures to the JOSE `r || s` form and exposes the public JWK.
public struct JWSSigningKey: Sendable {
    enum Material: Sendable {
        case curve(any CurvePrivateKey & Sendable)
        case rsa(RSAPrivateKey)
        case hmac(SymmetricKey)
        case external(any JWSSigner)
    }

    let material: Material
    /// The algorithm this key signs with.
    public let algorithm: JWSAlgorithm
    /// The key id written into the JWS header, if any.
    public var keyID: String?

    init(_ material: Material, _ algorithm: JWSAlgorithm, keyID: String?) {
        self.material = material
        self.algorithm = algorithm
        self.keyID = keyID
    }

    /// A key held by an external signer (Secure Enclave, hardware token, key service).
    public init(signer: any JWSSigner, keyID: String? = nil) {
        self.init(.external(signer), signer.algorithm, keyID: keyID)
    }

    /// An ES256 key.
    public static func es256(_ key: P256.Signing.PrivateKey, keyID: String? = nil) -> JWSSigningKey {
        JWSSigningKey(.curve(key), .es256, keyID: keyID)
    }

    /// An ES384 key.
    public static func es384(_ key: P384.Signing.PrivateKey, keyID: String? = nil) -> JWSSigningKey {
        JWSSigningKey(.curve(key), .es384, keyID: keyID)
    }

    /// An ES512 key.
    public static func es512(_ key: P521.Signing.PrivateKey, keyID: String? = nil) -> JWSSigningKey {
        JWSSigningKey(.curve(key), .es512, keyID: keyID)
    }

    /// An EdDSA (Ed25519) key.
    public static func edDSA(_ key: Curve25519.Signing.PrivateKey, keyID: String? = nil) -> JWSSigningKey {
        JWSSigningKey(.curve(key), .edDSA, keyID: keyID)
    }

    /// An RSA key for RS256 or PS256; the public `rsa(_:algorithm:keyID:)` takes the platform's
    /// key type (swift-crypto's `_RSA.Signing.PrivateKey`, or a `SecKey` on Apple platforms).
    static func rsa(_ key: RSAPrivateKey, algorithm: JWSAlgorithm, keyID: String?) throws -> JWSSigningKey {
        guard algorithm == .rs256 || algorithm == .ps256 else {
            throw JOSEError(.algorithmKeyMismatch, "an RSA key cannot sign \(algorithm.rawValue)")
        }
        return JWSSigningKey(.rsa(key), algorithm, keyID: keyID)
    }

    /// An HS256 key from a shared secret.
    ///
    /// RFC 7518 §3.2 requires a secret at least as long as the hash output (32 bytes).
    /// - Throws: ``JOSEError`` with [`JOSEError.Code.invalidKey`](doc:ErrorCode/invalidKey-3f3y7) for a shorter secret.
    public static func hs256(secret: some DataProtocol, keyID: String? = nil) throws -> JWSSigningKey {
        guard secret.count >= 32 else {
            throw JOSEError(.invalidKey, "an HS256 secret must be at least 32 bytes, got \(secret.count)")
        }
        return JWSSigningKey(.hmac(SymmetricKey(data: Data(secret))), .hs256, keyID: keyID)
    }

    /// A signing key from a private JWK (or an `oct` JWK for HS256).
    ///
    /// - Parameters:
    ///   - jwk: the key, with its private members (`d`, or `k` for `oct`).
    ///   - algorithm: the algorithm to sign with; when `nil`, the JWK's `alg`, or
    ///     the natural algorithm of its key type (ES256 for P-256, RS256 for RSA, ...).
    /// - Throws: ``JOSEError`` when the JWK has no private part, its members are invalid, its
    ///   private key is not the key its public members describe, or it does not fit the algorithm.
    public init(jwk: JWK, algorithm: JWSAlgorithm? = nil) throws {
        let verification = try JWSVerificationKey(jwk: jwk)
        let chosen = try algorithm ?? jwk.alg.map(JWSAlgorithm.parse) ?? verification.defaultAlgorithm
        guard verification.fits(chosen) else {
            throw JOSEError(.algorithmKeyMismatch, "a \(jwk.kty) key cannot sign \(chosen.rawValue)")
        }
        do {
            switch verification.material {
            case .curve(let publicKey):
                let key = try publicKey.curve.privateKeyType.init(rawRepresentation: try jwk.bytes("d", jwk.d))
                // A private key that is not the one the JWK's public members describe would
                // sign for another key than the one published.
                guard key.publicKey.rawRepresentation == publicKey.rawRepresentation else {
                    throw JOSEError(.invalidKey, "the JWK's private key \"d\" does not match its public \(publicKey.curve.publicMembers)")
                }
                material = .curve(key)
            case .rsa:
                material = .rsa(
                    try RSAPrivateKey(
                        n: try jwk.bytes("n", jwk.n), e: try jwk.bytes("e", jwk.e), d: try jwk.bytes("d", jwk.d),
                        p: try jwk.bytes("p", jwk.p), q: try jwk.bytes("q", jwk.q)))
            case .hmac(let secret):
                material = .hmac(secret)
            }
        } catch let error as JOSEError {
            throw error
        } catch {
            throw JOSEError(.invalidKey, "the private \(jwk.kty) JWK is not a valid key: \(error)")
        }
        self.algorithm = chosen
        self.keyID = jwk.kid
    }

    /// A signing key from a PEM private key (PKCS#8, SEC1 EC or PKCS#1 RSA), as apps ship
    /// for `private_key_jwt`.
    /// - Throws: ``JOSEError`` with [`JOSEError.Code.invalidKey`](doc:ErrorCode/invalidKey-3f3y7) when the PEM is not a key of the algorithm's type.
    public init(pem: String, algorithm: JWSAlgorithm, keyID: String? = nil) throws {
        do {
            if let curve = SigningCurve.signing(algorithm) {
                material = .curve(try curve.privateKeyType.init(pem: pem))
            } else if algorithm == .rs256 || algorithm == .ps256 {
                material = .rsa(try RSAPrivateKey(pem: pem))
            } else {
                throw JOSEError(.algorithmKeyMismatch, "\(algorithm.rawValue) takes a shared secret, not a PEM key")
            }
        } catch let error as JOSEError {
            throw error
        } catch {
            throw JOSEError(.invalidKey, "the PEM is not a \(algorithm.rawValue) private key: \(error)")
        }
        self.algorithm = algorithm
        self.keyID = keyID
    }

    /// An elliptic-curve private key in ANSI X9.63 form (`04 || x || y || d`), as the Security
    /// framework imports one; `nil` for any other key (RSA, HMAC, Ed25519, an external signer).
    public var x963PrivateRepresentation: Data? {
        guard case .curve(let key) = material else { return nil }
        let publicKey = key.publicKey
        guard type(of: publicKey).curve.keyType == "EC" else { return nil }
        return Data([0x04]) + publicKey.rawRepresentation + key.rawRepresentation
    }

    /// The public half as a JWK (with `kid` and `alg`), or `nil` for an HMAC secret.
    public var publicJWK: JWK? {
        var jwk: JWK
        switch material {
        case .curve(let key): jwk = key.publicKey.jwk
        case .rsa(let key):
            guard let components = key.publicKey?.components else { return nil }
            jwk = JWK(kty: "RSA", n: Base64URL.encode(components.modulus), e: Base64URL.encode(components.exponent))
        case .hmac: return nil
        case .external(let signer): jwk = signer.publicJWK
        }
        jwk.kid = keyID
        jwk.alg = algorithm.rawValue
        return jwk
    }

    /// The private key as a JWK, for keys that must outlive the process (for example a
    /// DPoP key bound to a stored refresh token). `nil` for RSA keys and external signers.
    public var privateJWK: JWK? {
        var jwk = publicJWK
        switch material {
        case .curve(let key): jwk?.d = Base64URL.encode(key.rawRepresentation)
        case .hmac(let key):
            jwk = JWK(kty: "oct", k: key.withUnsafeBytes { Base64URL.encode(Data($0)) }, kid: keyID, alg: algorithm.rawValue)
        case .rsa, .external: return nil
        }
        return jwk
    }

    /// Signs the JWS signing input and returns the signature in JOSE form.
    /// - Throws: ``JOSEError`` with [`JOSEError.Code.signingFailed`](doc:ErrorCode/signingFailed) when the crypto library fails.
    public func sign(_ input: some DataProtocol) throws -> Data {
        do {
            switch material {
            case .curve(let key): return try key.joseSignature(for: input)
            case .hmac(let key): return Data(HMAC<SHA256>.authenticationCode(for: input, using: key))
            case .external(let signer): return try signer.sign(Data(input))
            case .rsa(let key):
                return try key.signature(for: input, padding: algorithm == .ps256 ? .pss : .pkcs1v15)
            }
        } catch {
            throw JOSEError(.signingFailed, "\(algorithm.rawValue) signing failed: \(error)")
        }
    }
}

extension JWSAlgorithm {
    /// Parses a header or JWK `alg` value, refusing `none` and unknown names with typed errors.
    static func parse(_ name: String) throws -> JWSAlgorithm {
        if name.lowercased() == "none" {
            throw JOSEError(.algorithmNone, "unsecured JWS (alg \"\(name)\") are never accepted")
        }
        guard let algorithm = JWSAlgorithm(rawValue: name) else {
            throw JOSEError(.unsupportedAlgorithm, "unsupported JWS algorithm \"\(name)\"")
        }
        return algorithm
    }
}
