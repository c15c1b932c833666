import Foundation
import OAuthCore

/// A signed-in session's tokens (the seeds' AppAuth `AuthState`): what an app keeps between
/// launches so the user need not log in again.
///
/// `Codable` so that ``OIDCClient`` can save it in a ``Storage``, and a command-line tool can
/// keep it in its own profile file instead. Holds secrets (tokens, the DPoP private key):
/// store it only where secrets belong.
public struct AuthState: Sendable, Hashable, Codable {
    /// The issuer the tokens come from.
    public var issuer: String
    /// The client they were issued to.
    public var clientID: String
    /// The access token.
    public var accessToken: String
    /// `token_type`: `Bearer` or `DPoP`.
    public var tokenType: String
    /// When the access token expires, if the provider said.
    public var accessTokenExpiresAt: Date?
    /// The refresh token, if any; replaced at each refresh when the provider rotates them.
    public var refreshToken: String?
    /// The latest ID token, kept for `id_token_hint` at logout.
    public var idToken: String?
    /// The user's `sub` from the first ID token; every later ID token and UserInfo must match it.
    public var subject: String?
    /// The scopes granted.
    public var scope: String?
    /// The private JWK of the DPoP key the tokens are bound to, when they are.
    public var dpopKey: JWK?

    /// Makes a state.
    public init(
        issuer: String, clientID: String, accessToken: String, tokenType: String, accessTokenExpiresAt: Date? = nil,
        refreshToken: String? = nil, idToken: String? = nil, subject: String? = nil, scope: String? = nil, dpopKey: JWK? = nil
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.subject = subject
        self.scope = scope
        self.dpopKey = dpopKey
    }

    /// The claims of ``idToken`` (to show who is logged in). Read without checking the
    /// signature again: the token was validated when it was received, and this state is
    /// only as trustworthy as the storage it was read from.
    public var idTokenClaims: JWTClaims? {
        guard let idToken, let jws = try? CompactJWS(idToken) else { return nil }
        return try? JWTClaims(json: jws.payload)
    }

    /// Whether the access token is DPoP-bound.
    public var isDPoPBound: Bool { tokenType.caseInsensitiveCompare("DPoP") == .orderedSame }

    /// Whether the access token is still valid for at least `minimumLifetime` seconds at `now`
    /// (a token without a known expiry is assumed valid; the API's 401 will tell otherwise).
    public func isAccessTokenValid(for minimumLifetime: TimeInterval = 0, at now: Date = Date()) -> Bool {
        guard let accessTokenExpiresAt else { return true }
        return accessTokenExpiresAt.timeIntervalSince(now) > minimumLifetime
    }

    /// The state after a token response: tokens the response lacks are kept (a provider that
    /// does not rotate refresh tokens sends none back, RFC 6749 §6). The ID token is the
    /// validated `idToken` when given; the response's own is never kept unvalidated.
    public func updated(with tokens: TokenSuccessResponse, idToken: IDToken?) -> AuthState {
        var next = self
        next.accessToken = tokens.accessToken
        next.tokenType = tokens.tokenType
        next.accessTokenExpiresAt = tokens.expiresAt
        next.refreshToken = tokens.refreshToken ?? refreshToken
        next.idToken = idToken?.rawValue ?? self.idToken
        next.scope = tokens.scope ?? scope
        return next
    }
}
