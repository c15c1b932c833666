import Crypto
import Foundation

/// Checks ID tokens as OpenID Connect Core §3.1.3.7 asks, in an order where nothing of an
/// unverified token is believed: algorithm, signature, then claims.
public struct IDTokenValidator: Sendable {
    /// The provider's issuer: `iss` must equal it.
    public let issuer: String
    /// This client's id: `aud` must contain it, and `azp` must equal it when there are several audiences.
    public let clientID: String
    /// The algorithms accepted, without any symmetric one (see ``init(issuer:clientID:allowedAlgorithms:clockSkew:maximumAge:)``).
    public let allowedAlgorithms: Set<JWSAlgorithm>
    /// Allowed clock difference for `exp`, `iat` and `auth_time`.
    public let clockSkew: TimeInterval
    /// The oldest `iat` accepted.
    public let maximumAge: TimeInterval

    /// Makes a validator.
    ///
    /// HMAC algorithms are dropped from `allowedAlgorithms`: this client verifies with the
    /// provider's public keys, and a token "signed" with HS256 using a public key as the
    /// secret is the classic forgery (never HS with a public key). `none` cannot be expressed.
    public init(
        issuer: String, clientID: String, allowedAlgorithms: Set<JWSAlgorithm>, clockSkew: TimeInterval = 120,
        maximumAge: TimeInterval = 600
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.allowedAlgorithms = allowedAlgorithms.filter { !$0.isSymmetric }
        self.clockSkew = clockSkew
        self.maximumAge = maximumAge
    }

    /// Validates an ID token.
    ///
    /// - Parameters:
    ///   - token: the compact ID token.
    ///   - keys: the provider's keys; fetched again once when the token names an unknown `kid`.
    ///   - nonce: the `nonce` the authorization request sent (`nil` for tokens from a refresh,
    ///     which carry none to check, OpenID Connect Core §12.2).
    ///   - accessToken: the access token issued with it, for `at_hash`.
    ///   - maxAge: the `max_age` the request sent, if any; `auth_time` is then required and checked.
    ///   - now: the time to check against.
    /// - Throws: ``OIDCError`` [`OIDCError.Code.invalidIDToken`](doc:ErrorCode/invalidIDToken) (its ``OIDCError/cause`` the
    ///   ``JOSEError`` when there is one), [`OIDCError.Code.nonceMismatch`](doc:ErrorCode/nonceMismatch) or [`OIDCError.Code.atHashMismatch`](doc:ErrorCode/atHashMismatch).
    public func validate(
        _ token: String, keys: ProviderKeySet, nonce: String?, accessToken: String?, maxAge: Int? = nil, now: Date = Date()
    ) async throws -> IDToken {
        let jws: CompactJWS
        let algorithm: JWSAlgorithm
        do {
            jws = try CompactJWS(token)
            algorithm = try jws.algorithm()
        } catch {
            throw Self.invalid("the ID token cannot be read", error)
        }
        guard allowedAlgorithms.contains(algorithm) else {
            throw Self.invalid("the ID token is signed with \(algorithm.rawValue), which this client does not accept", nil)
        }
        do {
            try jws.verify(with: try await keys.keys(), allowedAlgorithms: allowedAlgorithms)
        } catch let error as JOSEError where error.code == .unknownKey {
            // A key id the cached set lacks: the provider may have rotated its keys. Fetch once more.
            do {
                try jws.verify(with: try await keys.refetch(), allowedAlgorithms: allowedAlgorithms)
            } catch let error as OIDCError {
                throw error
            } catch {
                throw Self.invalid("the ID token's signature does not verify with the provider's keys", error)
            }
        } catch let error as OIDCError {
            throw error
        } catch {
            throw Self.invalid("the ID token's signature does not verify with the provider's keys", error)
        }
        let claims: JWTClaims
        do {
            claims = try JWTClaims(json: jws.payload)
            try claims.validate(
                JWTValidationOptions(
                    now: now, clockSkew: clockSkew, issuer: issuer, audience: clientID, requireExpiration: true,
                    requireIssuedAt: true, maximumAge: maximumAge))
        } catch {
            throw Self.invalid("the ID token's claims are not valid", error)
        }
        guard let subject = claims.subject, !subject.isEmpty else {
            throw Self.invalid("the ID token has no \"sub\"", nil)
        }
        let audience = claims.audience ?? []
        if let azp = claims[string: "azp"] {
            guard azp == clientID else {
                throw Self.invalid("the ID token's azp is \"\(azp)\", not this client", nil)
            }
        } else if audience.count > 1 {
            throw Self.invalid("the ID token has several audiences \(audience) but no azp naming this client", nil)
        }
        if let nonce {
            guard claims[string: "nonce"] == nonce else {
                throw OIDCError(.nonceMismatch, "the ID token's nonce is not the one this login sent")
            }
        }
        if let expected = claims[string: "at_hash"], let accessToken {
            guard Self.tokenHash(accessToken, algorithm: algorithm) == expected else {
                throw OIDCError(.atHashMismatch, "the ID token's at_hash does not match the access token")
            }
        }
        if let maxAge {
            guard let authTime = claims.all["auth_time"]?.doubleValue else {
                throw Self.invalid("max_age was requested but the ID token has no auth_time", nil)
            }
            guard now.timeIntervalSince1970 - authTime <= Double(maxAge) + clockSkew else {
                throw Self.invalid("the user authenticated longer ago than max_age=\(maxAge) allows", nil)
            }
        }
        return IDToken(rawValue: token, claims: claims)
    }

    /// `at_hash` / `c_hash` (Core §3.1.3.6): the left half of the hash the JWS algorithm uses,
    /// base64url. Ed25519 signatures use SHA-512.
    static func tokenHash(_ token: String, algorithm: JWSAlgorithm) -> String {
        let data = Data(token.utf8)
        let digest: [UInt8]
        switch algorithm {
        case .es384: digest = Array(SHA384.hash(data: data))
        case .es512, .edDSA: digest = Array(SHA512.hash(data: data))
        default: digest = Array(SHA256.hash(data: data))
        }
        return Base64URL.encode(digest.prefix(digest.count / 2))
    }

    private static func invalid(_ message: String, _ cause: (any Error)?) -> OIDCError {
        let detail = (cause as? any IdsvrError).map { ": \($0.errorDescription ?? $0.error)" } ?? ""
        return OIDCError(.invalidIDToken, message + detail, cause: cause)
    }
}
