import Foundation
import OAuthCore

/// OpenID Connect ID tokens: iss, sub, aud, exp, iat, auth_time, nonce (and the profile and
/// email claims the scope grants), signed with the server's key.
enum IDToken {
    static func issue(state: ServerState, refresh: RefreshTokenRecord, scope: [String]) async throws -> String {
        let now = OutsideNumber.wholeSeconds(Date().timeIntervalSince1970)
        var claims: [String: JSONValue] = [
            "iss": .string(state.issuer.absoluteString), "sub": .string(refresh.username), "aud": .string(refresh.clientId),
            "azp": .string(refresh.clientId), "iat": .integer(now), "exp": .integer(now + OAuthSupport.idTokenLifetime),
            "auth_time": .integer(OutsideNumber.wholeSeconds(refresh.authTime.timeIntervalSince1970)), "sid": .string(refresh.family),
        ]
        if let nonce = refresh.nonce { claims["nonce"] = .string(nonce) }
        if let user = try await state.store.get(UserRecord.self, kind: "user", id: refresh.username) {
            claims.merge(UserInfoEndpoint.claims(of: user, scope: scope)) { current, _ in current }
        }
        return try state.signJWT(.object(claims))
    }

    /// The claims of an ID token this server signed (signature and issuer checked, expiry not:
    /// an `id_token_hint` may have expired).
    static func verifyHint(_ token: String, state: ServerState) -> JWTClaims? {
        guard let jws = try? CompactJWS(token), jws.header.typ == "JWT",
            (try? jws.verify(with: state.verificationKey, allowedAlgorithms: [.es256])) != nil,
            let claims = try? JWTClaims(json: jws.payload), claims.issuer == state.issuer.absoluteString
        else { return nil }
        return claims
    }
}
