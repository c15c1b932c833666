import Crypto
import Foundation

/// A DPoP key holder (RFC 9449): one key pair, the proofs it signs, and the nonces servers gave it.
///
/// One `Dpop` is one proof-of-possession identity. Tokens bound to it (`cnf.jkt` equal to
/// ``thumbprint``) can only be used with proofs from the same key, so keep it for as long as
/// those tokens live (see ``JWSSigningKey/privateJWK`` to persist it).
public final class Dpop: NSObject, Sendable {
    /// The key type.
    public let keyType: CryptoKeyType
    /// The private key that signs proofs.
    public let signingKey: JWSSigningKey
    /// The public key, as sent in every proof's `jwk` header.
    public let publicJWK: JWK
    /// The RFC 7638 thumbprint of the public key: the `jkt` servers bind tokens to.
    public let thumbprint: String
    /// The nonces servers have sent.
    public let nonces: DPoPNonceCache
    /// base64url of the proof header, which is the same for every proof of this key.
    private let encodedHeader: String

    /// A holder with a new key of `keyType` (P-256 unless told otherwise).
    /// - Throws: ``DPoPError`` with [`DPoPError.Code.keyCreationFailed`](doc:ErrorCode/keyCreationFailed) when the key type is not available here.
    public convenience init(keyType: CryptoKeyType = .p256) throws {
        let key: JWSSigningKey
        switch keyType {
        case .p256, .security: key = .es256(P256.Signing.PrivateKey())
        case .p384: key = .es384(P384.Signing.PrivateKey())
        case .p521: key = .es512(P521.Signing.PrivateKey())
        case .ed25519: key = .edDSA(Curve25519.Signing.PrivateKey())
        case .secureEnclave: key = try .secureEnclave()
        }
        try self.init(signingKey: key, keyType: keyType)
    }

    /// A holder for an existing key, for example one restored from storage.
    /// - Throws: ``DPoPError`` with [`DPoPError.Code.keyCreationFailed`](doc:ErrorCode/keyCreationFailed) for an HMAC or RSA key
    ///   (DPoP needs an asymmetric key whose public half fits in the header).
    public init(signingKey: JWSSigningKey, keyType: CryptoKeyType? = nil, nonces: DPoPNonceCache = DPoPNonceCache()) throws {
        guard !signingKey.algorithm.isSymmetric, var jwk = signingKey.publicJWK else {
            throw DPoPError(.keyCreationFailed, "a DPoP key must be an asymmetric key, not \(signingKey.algorithm.rawValue)")
        }
        // The header carries only the public key members: kid and alg do not belong in it.
        jwk.kid = nil
        jwk.alg = nil
        self.keyType = keyType ?? CryptoKeyType.allCases.first { $0.algorithm == signingKey.algorithm } ?? .p256
        self.signingKey = signingKey
        self.publicJWK = jwk
        self.nonces = nonces
        do {
            self.thumbprint = try jwk.thumbprint()
        } catch {
            throw DPoPError(.keyCreationFailed, "the DPoP public key has no thumbprint", underlying: error)
        }
        var header = JOSEHeader(algorithm: signingKey.algorithm, typ: "dpop+jwt", jwk: jwk)
        header.kid = nil
        self.encodedHeader = Base64URL.encode(header.serialized())
    }

    /// A restored holder from a private JWK.
    public convenience init(privateJWK: JWK) throws {
        do {
            try self.init(signingKey: try JWSSigningKey(jwk: privateJWK))
        } catch let error as DPoPError {
            throw error
        } catch {
            throw DPoPError(.keyCreationFailed, "the stored DPoP key cannot be read", underlying: error)
        }
    }

    /// Makes a proof for one request.
    ///
    /// - Parameters:
    ///   - method: the request's method (`htm`).
    ///   - url: the request's URL; `htu` keeps only scheme, host, port and path.
    ///   - accessToken: the access token sent with the request, if any (`ath`).
    ///   - nonce: the server nonce to include (``ProofNonce``); by default the last one the URL's origin sent.
    ///   - issuedAt: `iat`, now by default.
    /// - Throws: ``DPoPError`` with [`DPoPError.Code.proofCreationFailed`](doc:ErrorCode/proofCreationFailed) when signing fails.
    public func proof(
        method: String, url: URL, accessToken: String? = nil, nonce: ProofNonce = .lastSent, issuedAt: Date = Date()
    ) throws -> String {
        // One parse of the URL serves both the nonce lookup and htu.
        let target = TargetParts(url)
        let nonce: String? =
            switch nonce {
            case .lastSent: target.flatMap { nonces.nonce(forOrigin: $0.origin) }
            case .given(let value): value
            case .omitted: nil
            }
        let htu = target?.htu ?? url.absoluteString
        var payload = "{\"jti\":\"\(Self.newJTI())\",\"htm\":\(JSONText.quoted(method.uppercased()))"
        payload += ",\"htu\":\(JSONText.quoted(htu)),\"iat\":\(OutsideNumber.wholeSeconds(issuedAt.timeIntervalSince1970))"
        if let accessToken {
            payload += ",\"ath\":\"\(Base64URL.encode(SHA256.hash(data: Data(accessToken.utf8))))\""
        }
        if let nonce { payload += ",\"nonce\":\(JSONText.quoted(nonce))" }
        payload += "}"
        let input = encodedHeader + "." + Base64URL.encode(Data(payload.utf8))
        do {
            return input + "." + Base64URL.encode(try signingKey.sign(Data(input.utf8)))
        } catch {
            throw DPoPError(.proofCreationFailed, "the DPoP proof could not be signed", underlying: error)
        }
    }

    /// The RFC 7638 thumbprint of the public key (Curity's name for ``thumbprint``).
    public var jwkThumbprint: String { thumbprint }

    /// A proof for one request (Curity's `createProof`): ``proof(method:url:accessToken:nonce:issuedAt:)``
    /// with `nonce`, or, when it is `nil`, the one the URL's origin last sent this key.
    /// - Throws: ``DPoPError`` with [`DPoPError.Code.proofCreationFailed`](doc:ErrorCode/proofCreationFailed) when signing fails.
    public func createProof(httpMethod: String, url: URL, nonce: String? = nil, accessToken: String? = nil) throws -> String {
        try proof(method: httpMethod, url: url, accessToken: accessToken, nonce: nonce.map(ProofNonce.given) ?? .lastSent)
    }

    /// The value of a request's `DPoP` header (Curity's `getHeaderValue`): the proof ``createProof(httpMethod:url:nonce:accessToken:)`` makes.
    /// - Throws: ``DPoPError`` with [`DPoPError.Code.proofCreationFailed`](doc:ErrorCode/proofCreationFailed) when signing fails.
    public func getHeaderValue(httpMethod: String, url: URL, nonce: String? = nil, accessToken: String? = nil) throws -> String {
        try createProof(httpMethod: httpMethod, url: url, nonce: nonce, accessToken: accessToken)
    }

    /// Sends a request with a fresh proof, learning the server's nonce from every response,
    /// and retries exactly once when the server answers `use_dpop_nonce` with a new nonce.
    ///
    /// The request is made anew for the retry (by `makeRequest`), so single-use parts such
    /// as a client assertion are not replayed.
    /// - Throws: ``DPoPError`` with [`DPoPError.Code.nonceRetryExhausted`](doc:ErrorCode/nonceRetryExhausted) when the server asks
    ///   for a nonce again after the retry, or asks without giving one.
    public func send(
        using transport: any HTTPTransport, accessToken: String? = nil,
        _ makeRequest: @Sendable () throws -> TransportRequest
    ) async throws -> TransportResponse {
        var retried = false
        while true {
            var request = try makeRequest()
            let sentNonce = nonces.nonce(for: request.url)
            request.headers["DPoP"] = try proof(
                method: request.method, url: request.url, accessToken: accessToken, nonce: ProofNonce(sentNonce))
            let response = try await transport.send(request)
            let newNonce = nonces.learn(from: response)
            guard Self.isNonceChallenge(response) else { return response }
            guard !retried else {
                throw DPoPError(
                    .nonceRetryExhausted, "the server asked for a new DPoP nonce again after one retry",
                    statusCode: response.status)
            }
            guard let newNonce, newNonce != sentNonce else {
                throw DPoPError(
                    .nonceRetryExhausted, "the server asked for a DPoP nonce (use_dpop_nonce) but sent no new one",
                    statusCode: response.status)
            }
            retried = true
        }
    }

    /// Whether a response asks for a (new) nonce: 401 with `WWW-Authenticate: DPoP error="use_dpop_nonce"`
    /// from a resource server, or 400 `{"error":"use_dpop_nonce"}` from an authorization server.
    static func isNonceChallenge(_ response: TransportResponse) -> Bool {
        guard response.status == 400 || response.status == 401 else { return false }
        if AccessTokenChallenge(response)?.error == "use_dpop_nonce" { return true }
        return OAuthErrorResponse(response)?.error == "use_dpop_nonce"
    }

    private static func newJTI() -> String {
        // 128 random bits from two draws: each draw is a system call on Linux.
        var generator = SystemRandomNumberGenerator()
        let high = generator.next()
        let low = generator.next()
        return withUnsafeBytes(of: (high, low)) { Base64URL.encode($0) }
    }
}

/// A DPoP key written down and read back (as Curity's `Dpop` is `Codable`), to keep the key
/// tokens are bound to for as long as they live: the key type, and the private key as a JWK,
/// or for a Secure Enclave key the enclave's wrapped form of it, which only that device's
/// enclave can use. The encoding holds the private key: store it where secrets go (the
/// Keychain, ``KeychainStorage``), never in a file others read. The nonces are not kept.
extension Dpop: Codable {
    private enum CodingKeys: String, CodingKey { case keyType, privateJWK, secureEnclaveKey }

    /// Writes the key type and the private key.
    /// - Throws: `EncodingError.invalidValue` for a key that cannot be written down (RSA, or
    ///   another external signer than the Secure Enclave's).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(keyType, forKey: .keyType)
        if let jwk = signingKey.privateJWK {
            try container.encode(jwk, forKey: .privateJWK)
        } else if let wrapped = signingKey.secureEnclaveDataRepresentation {
            try container.encode(Base64URL.encode(wrapped), forKey: .secureEnclaveKey)
        } else {
            throw EncodingError.invalidValue(
                self,
                .init(
                    codingPath: encoder.codingPath,
                    debugDescription: "a \(signingKey.algorithm.rawValue) key of this kind cannot be written down"))
        }
    }

    /// Reads a key written by ``encode(to:)``, with no nonce yet.
    /// - Throws: `DecodingError` for a key that is missing or unreadable, or a Secure Enclave key
    ///   where there is no Secure Enclave.
    public convenience init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let keyType = try container.decode(CryptoKeyType.self, forKey: .keyType)
        let key: JWSSigningKey
        do {
            if let jwk = try container.decodeIfPresent(JWK.self, forKey: .privateJWK) {
                key = try JWSSigningKey(jwk: jwk)
            } else {
                let wrapped = try container.decode(String.self, forKey: .secureEnclaveKey)
                guard let data = Base64URL.decode(wrapped) else {
                    throw DPoPError(.keyCreationFailed, "the Secure Enclave key is not base64url")
                }
                key = try JWSSigningKey.secureEnclave(dataRepresentation: data)
            }
            try self.init(signingKey: key, keyType: keyType)
        } catch let error as DecodingError {
            throw error
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: "the DPoP key cannot be read: \(error)", underlyingError: error))
        }
    }
}

/// The nonce a DPoP proof carries (``Dpop/proof(method:url:accessToken:nonce:issuedAt:)``).
public enum ProofNonce: Sendable, Hashable, ExpressibleByStringLiteral {
    /// The nonce the request URL's origin last sent this key; none when it sent none.
    case lastSent
    /// This nonce.
    case given(String)
    /// None.
    case omitted

    /// `nonce` when there is one, else none (``omitted``).
    public init(_ nonce: String?) { self = nonce.map(ProofNonce.given) ?? .omitted }

    /// The nonce written as a literal (`nonce: "n"`): ``given(_:)``.
    public init(stringLiteral value: String) { self = .given(value) }
}
