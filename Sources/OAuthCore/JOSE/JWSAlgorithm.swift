/// A JWS signature algorithm (RFC 7518 §3, RFC 8037 for EdDSA).
///
/// `none` is deliberately absent: an unsecured JWS can be parsed (and is then refused
/// with [`JOSEError.Code.algorithmNone`](doc:ErrorCode/algorithmNone)) but never made or verified.
public enum JWSAlgorithm: String, Sendable, Hashable, CaseIterable, Codable {
    /// ECDSA with P-256 and SHA-256.
    case es256 = "ES256"
    /// ECDSA with P-384 and SHA-384.
    case es384 = "ES384"
    /// ECDSA with P-521 and SHA-512.
    case es512 = "ES512"
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    case rs256 = "RS256"
    /// RSASSA-PSS with SHA-256 and MGF1 with SHA-256.
    case ps256 = "PS256"
    /// HMAC with SHA-256.
    case hs256 = "HS256"
    /// Edwards-curve signatures with Ed25519.
    case edDSA = "EdDSA"

    /// Whether the algorithm uses a shared secret rather than a key pair.
    public var isSymmetric: Bool { self == .hs256 }
}
