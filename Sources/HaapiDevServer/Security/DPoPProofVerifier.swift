import Crypto
import Foundation
import OAuthCore

/// Checks DPoP proofs as a resource or authorization server does (RFC 9449 §4.3).
package struct DPoPProofVerifier: Sendable {
    /// Why a proof was refused.
    package struct Failure: IdsvrError, Hashable {
        /// What was wrong, for the `error_description`.
        package let reason: String
        /// Whether the proof lacked the current nonce (the answer is then `use_dpop_nonce`).
        package let needsNonce: Bool

        package var error: String { needsNonce ? "use_dpop_nonce" : "invalid_dpop_proof" }
        package var errorDescription: String? { reason }
        package var failureReason: String { reason }
        package var recoverySuggestion: IdsvrErrorHandling {
            needsNonce ? .retryable(condition: .now) : .unrecoverable(action: .modifyConfiguration(reason: reason))
        }
    }

    /// A checked proof.
    package struct Proof: Sendable, Hashable {
        /// The RFC 7638 thumbprint of the proof's key: what tokens are bound to (`cnf.jkt`).
        package let thumbprint: String
        /// The proof's `jti`.
        package let jti: String
        /// The proof's `iat`.
        package let issuedAt: Date
    }

    /// The algorithms accepted (default: every asymmetric one this package supports).
    package var allowedAlgorithms: Set<JWSAlgorithm>
    /// How far `iat` may be from now, in seconds (default 60).
    package var maximumAge: TimeInterval

    /// Makes a verifier.
    package init(allowedAlgorithms: Set<JWSAlgorithm> = [.es256, .es384, .es512, .edDSA, .rs256, .ps256], maximumAge: TimeInterval = 60) {
        self.allowedAlgorithms = allowedAlgorithms
        self.maximumAge = maximumAge
    }

    /// Checks a proof for one request.
    ///
    /// - Parameters:
    ///   - proof: the `DPoP` header.
    ///   - method: the request's method.
    ///   - url: the request's URL as the server sees it (its public scheme, host and port).
    ///   - accessToken: the access token sent with the request, whose hash `ath` must carry.
    ///   - expectedNonce: the nonce the proof must carry, when the server requires one.
    ///   - boundThumbprint: the `cnf.jkt` of the access token, when it is bound.
    ///   - isNewJTI: records the proof's `jti` (until `iat` + the maximum age) and says whether it
    ///     was unseen; a replayed proof is refused.
    /// - Throws: ``Failure``.
    package func verify(
        _ proof: String, method: String, url: URL, accessToken: String? = nil, expectedNonce: String? = nil,
        boundThumbprint: String? = nil, now: Date = Date(), isNewJTI: (String, String, Date) async throws -> Bool
    ) async throws -> Proof {
        func refuse(_ reason: String, nonce: Bool = false) -> Failure { Failure(reason: reason, needsNonce: nonce) }
        guard let jws = try? CompactJWS(proof, maximumLength: 8192) else { throw refuse("the DPoP proof is not a compact JWS") }
        guard jws.header.typ == "dpop+jwt" else { throw refuse("the DPoP proof's typ is not dpop+jwt") }
        guard let algorithm = try? jws.algorithm(), allowedAlgorithms.contains(algorithm) else {
            throw refuse("the DPoP proof's algorithm is not accepted")
        }
        guard let jwk = jws.header.jwk, !jwk.isPrivate else { throw refuse("the DPoP proof has no public jwk") }
        do {
            try jws.verify(with: JWSVerificationKey(jwk: jwk), allowedAlgorithms: allowedAlgorithms)
        } catch {
            throw refuse("the DPoP proof's signature does not verify")
        }
        guard let claims = try? JSONValue(parsing: jws.payload).objectValue else {
            throw refuse("the DPoP proof's payload is not an object")
        }
        guard let jti = claims["jti"]?.stringValue, !jti.isEmpty, jti.count <= 256 else { throw refuse("the DPoP proof has no jti") }
        guard claims["htm"]?.stringValue == method.uppercased() else { throw refuse("the DPoP proof's htm does not match the request") }
        guard let htu = claims["htu"]?.stringValue, let htuURL = URL(string: htu), htuURL.dpopHTU == url.dpopHTU else {
            throw refuse("the DPoP proof's htu does not match the request")
        }
        guard let iat = claims["iat"]?.doubleValue else { throw refuse("the DPoP proof has no iat") }
        let issuedAt = Date(timeIntervalSince1970: iat)
        guard abs(issuedAt.timeIntervalSince(now)) <= maximumAge else {
            throw refuse("the DPoP proof's iat is outside the accepted window")
        }
        if let accessToken {
            let expected = Base64URL.encode(SHA256.hash(data: Data(accessToken.utf8)))
            guard claims["ath"]?.stringValue == expected else { throw refuse("the DPoP proof's ath does not match the access token") }
        }
        let thumbprint: String
        do { thumbprint = try jwk.thumbprint() } catch { throw refuse("the DPoP proof's jwk has no thumbprint") }
        if let boundThumbprint, boundThumbprint != thumbprint {
            throw refuse("the DPoP proof's key is not the key the token is bound to")
        }
        if let expectedNonce, claims["nonce"]?.stringValue != expectedNonce {
            throw refuse("a DPoP nonce is required", nonce: true)
        }
        guard try await isNewJTI(thumbprint, jti, issuedAt.addingTimeInterval(maximumAge)) else {
            throw refuse("the DPoP proof was already used (jti replay)")
        }
        return Proof(thumbprint: thumbprint, jti: jti, issuedAt: issuedAt)
    }
}
