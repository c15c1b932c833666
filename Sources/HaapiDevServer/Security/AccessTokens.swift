import Foundation
import OAuthCore

/// The server's access tokens: JWTs (`typ: at+jwt`) signed with its key, bound to a DPoP key
/// through `cnf.jkt` when issued with a proof.
public struct AccessTokenClaims: Sendable, Hashable {
    /// The client.
    public var clientId: String
    /// The user, for user tokens.
    public var subject: String?
    /// Granted scopes.
    public var scope: [String]
    /// The DPoP key thumbprint the token is bound to.
    public var jkt: String?
    /// When it expires.
    public var expiresAt: Date
    /// The token's id.
    public var jti: String
}

extension ServerState {
    /// Issues an access token.
    public func issueAccessToken(clientId: String, subject: String?, scope: [String], jkt: String?, lifetime: Int) throws -> String {
        let now = OutsideNumber.wholeSeconds(Date().timeIntervalSince1970)
        var claims: [String: JSONValue] = [
            "iss": .string(issuer.absoluteString), "client_id": .string(clientId), "aud": .string(clientId),
            "scope": .string(scope.joined(separator: " ")), "iat": .integer(now), "exp": .integer(now + lifetime),
            "jti": .string(SeedData.randomToken(16)), "sub": .string(subject ?? clientId),
        ]
        if let jkt { claims["cnf"] = ["jkt": .string(jkt)] }
        return try signJWT(.object(claims), type: "at+jwt")
    }

    /// Checks an access token's signature, issuer, expiry and revocation; `nil` when it is not valid.
    public func verifyAccessToken(_ token: String) async throws -> AccessTokenClaims? {
        guard
            let verified = try? VerifiedJWT(
                token, key: verificationKey, allowedAlgorithms: [.es256],
                options: JWTValidationOptions(clockSkew: 5, issuer: issuer.absoluteString))
        else { return nil }
        let claims = verified.claims
        guard verified.jws.header.typ == "at+jwt", let clientId = claims[string: "client_id"], let jti = claims.jwtID,
            let expiresAt = claims.expiresAt
        else { return nil }
        if try await store.get(Bool.self, kind: "revoked-access-token", id: jti) != nil { return nil }
        return AccessTokenClaims(
            clientId: clientId, subject: claims.subject, scope: (claims[string: "scope"] ?? "").split(separator: " ").map(String.init),
            jkt: claims.all["cnf"]?["jkt"]?.stringValue, expiresAt: expiresAt, jti: jti)
    }

    /// Checks the DPoP proof of a request; records its `jti` so a replay is refused.
    ///
    /// - Returns: the proof's key thumbprint.
    /// - Throws: the package-internal `DPoPProofVerifier.Failure`, an ``/OAuthCore/IdsvrError``
    ///   (`use_dpop_nonce` when a nonce is required and missing).
    public func checkDPoP(
        _ proof: String, method: String, path: String, accessToken: String? = nil, boundThumbprint: String? = nil
    ) async throws -> String {
        let nonce = configuration.requiresDPoPNonce ? try await currentNonce() : nil
        let store = self.store
        return try await DPoPProofVerifier().verify(
            proof, method: method, url: url(path), accessToken: accessToken, expectedNonce: nonce, boundThumbprint: boundThumbprint,
            isNewJTI: { jkt, jti, until in try await store.insertIfAbsent(kind: "dpop-jti", id: "\(jkt).\(jti)", expiresAt: until) }
        ).thumbprint
    }

    /// The server's current DPoP nonce (rotated every 5 minutes), when nonces are on.
    public func currentNonce() async throws -> String? {
        guard configuration.requiresDPoPNonce else { return nil }
        if let nonce = try await store.get(String.self, kind: "dpop-nonce", id: "current") { return nonce }
        let nonce = SeedData.randomToken(16)
        try await store.put(nonce, kind: "dpop-nonce", id: "current", expiresAt: Date().addingTimeInterval(300))
        return nonce
    }
}
