import Foundation
import HaapiUI
import OAuthCore
import OIDCClient

/// Tokens as a profile keeps them (`tokens.json`).
struct StoredTokens: Codable, Sendable, Equatable {
    var accessToken: String
    var tokenType: String
    var expiresAt: Date?
    var refreshToken: String?
    var idToken: String?
    var scope: String?
    var receivedAt: Date
    /// The private key the tokens are bound to, when they are DPoP-bound.
    var dpopKey: JWK?

    /// The tokens a login ended with, and the key of the flow when they are bound to it.
    init(_ model: OAuthTokenModel, dpop: Dpop) {
        self.init(model.response, replacing: nil)
        dpopKey = model.isBound ? dpop.signingKey.privateJWK : nil
    }

    /// The tokens of a browser login.
    init(_ state: AuthState, receivedAt: Date = Date()) {
        accessToken = state.accessToken
        tokenType = state.tokenType
        expiresAt = state.accessTokenExpiresAt
        refreshToken = state.refreshToken
        idToken = state.idToken
        scope = state.scope
        self.receivedAt = receivedAt
        dpopKey = state.dpopKey
    }

    /// The tokens of a token response. A refresh response may leave out what did not change
    /// (RFC 6749 §6): the refresh token when it is not rotated, the ID token, the scope.
    init(_ response: TokenSuccessResponse, replacing previous: StoredTokens?) {
        accessToken = response.accessToken
        tokenType = response.tokenType
        expiresAt = response.expiresAt
        refreshToken = response.refreshToken ?? previous?.refreshToken
        idToken = response.idToken ?? previous?.idToken
        scope = response.scope ?? previous?.scope
        receivedAt = response.receivedAt
        dpopKey = previous?.dpopKey
    }

    /// Whether the access token is bound to the profile's DPoP key.
    var isDPoPBound: Bool { tokenType.caseInsensitiveCompare("DPoP") == .orderedSame }

    /// When the access token expires: `expires_in` as received, else the JWT's `exp`; `nil`
    /// when neither says.
    var expiry: Date? {
        expiresAt ?? JWTText.claims(accessToken)?["exp"]?.doubleValue.map { Date(timeIntervalSince1970: $0) }
    }

    /// Whether the access token has at least `seconds` left (a token of unknown expiry has).
    func isValid(for seconds: TimeInterval, at now: Date = Date()) -> Bool {
        guard let expiry else { return true }
        return expiry.timeIntervalSince(now) >= seconds
    }

    /// The subject: the access token's `sub` when it is a JWT, else the ID token's.
    var subject: String? {
        JWTText.claims(accessToken)?["sub"]?.stringValue ?? idToken.flatMap { JWTText.claims($0)?["sub"]?.stringValue }
    }
}
