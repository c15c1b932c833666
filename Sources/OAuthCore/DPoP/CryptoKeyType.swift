/// The type of key a DPoP proof is signed with (the seeds' `CryptoKeyType`). Its raw values are
/// Curity's numbers (`p256` 0, `secureEnclave` 1, `security` 2; the key types Curity has not
/// follow); it is written to JSON by ``name``, as before.
public enum CryptoKeyType: Int, Sendable, Hashable, CaseIterable, Codable {
    /// NIST P-256, ES256: the default, and what every DPoP server accepts.
    case p256 = 0
    /// A P-256 key held by the Secure Enclave (Apple devices only; elsewhere key creation
    /// fails with [`DPoPError.Code.keyCreationFailed`](doc:ErrorCode/keyCreationFailed), suggesting ``p256``).
    case secureEnclave = 1
    /// A P-256 key made in software (Curity's key of the Security framework, outside the
    /// Secure Enclave): the same kind of key as ``p256``, made by swift-crypto on every platform.
    case security = 2
    /// NIST P-384, ES384.
    case p384 = 3
    /// NIST P-521, ES512.
    case p521 = 4
    /// Ed25519, EdDSA.
    case ed25519 = 5

    /// The case's name (`p256`, `secureEnclave`, ...): what JSON holds.
    public var name: String {
        switch self {
        case .p256: return "p256"
        case .secureEnclave: return "secureEnclave"
        case .security: return "security"
        case .p384: return "p384"
        case .p521: return "p521"
        case .ed25519: return "ed25519"
        }
    }

    /// The key type named `name` (``name``); `nil` for another.
    public init?(name: String) {
        guard let type = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = type
    }

    /// Reads the name (``name``), or Curity's number.
    /// - Throws: `DecodingError.dataCorrupted` for another name or number.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let name = try? container.decode(String.self), let type = CryptoKeyType(name: name) {
            self = type
        } else if let number = try? container.decode(Int.self), let type = CryptoKeyType(rawValue: number) {
            self = type
        } else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a key type: one of \(Self.allCases.map(\.name))"))
        }
    }

    /// Writes the name (``name``).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }

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
