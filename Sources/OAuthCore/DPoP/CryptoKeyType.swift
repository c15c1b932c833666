/// The type of key a DPoP proof is signed with (the seeds' `CryptoKeyType`).
public enum CryptoKeyType: String, Sendable, Hashable, CaseIterable, Codable {
    /// NIST P-256, ES256: the default, and what every DPoP server accepts.
    case p256
    /// NIST P-384, ES384.
    case p384
    /// NIST P-521, ES512.
    case p521
    /// Ed25519, EdDSA.
    case ed25519
    /// A P-256 key held by the Secure Enclave (Apple devices only; elsewhere key creation
    /// fails with [`DPoPError.Code.keyCreationFailed`](doc:ErrorCode/keyCreationFailed), suggesting ``p256``).
    case secureEnclave
    /// A P-256 key made in software (Curity's key of the Security framework, outside the
    /// Secure Enclave): the same kind of key as ``p256``, made by swift-crypto on every platform.
    case security

    /// The JWS algorithm of proofs signed with this key type.
    public var algorithm: JWSAlgorithm {
        switch self {
        case .p256, .secureEnclave, .security: return .es256
        case .p384: return .es384
        case .p521: return .es512
        case .ed25519: return .edDSA
        }
    }
}
