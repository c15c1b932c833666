import Foundation
import HaapiUI
import OAuthCore
import OIDCClient

/// A profile keeps OIDCClient's ``AuthState`` in `tokens.json` for both kinds of login; a
/// HAAPI login's tokens are put in that shape here.
extension AuthState {
    /// The tokens a HAAPI login ended with, and the key of the flow when they are bound to it.
    /// The expiry is `expires_in` from receipt, else the access token's `exp`.
    init(_ model: OAuthTokenModel, dpop: Dpop, issuer: String, clientID: String) {
        let accessClaims = JWTText.claims(model.accessToken)
        self.init(
            issuer: issuer, clientID: clientID, accessToken: model.accessToken, tokenType: model.response.tokenType,
            accessTokenExpiresAt: model.response.expiresAt ?? accessClaims?["exp"]?.doubleValue.map { Date(timeIntervalSince1970: $0) },
            refreshToken: model.refreshToken, idToken: model.idToken,
            subject: accessClaims?["sub"]?.stringValue ?? model.idToken.flatMap { JWTText.claims($0)?["sub"]?.stringValue },
            scope: model.scope, dpopKey: model.isBound ? dpop.signingKey.privateJWK : nil)
    }
}
