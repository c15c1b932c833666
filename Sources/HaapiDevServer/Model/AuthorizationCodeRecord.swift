import Foundation

/// An issued authorization code, kept (single use, 2 minutes) until the token endpoint takes it.
public struct AuthorizationCodeRecord: Codable, Sendable, Hashable {
    /// The client it was issued to.
    public var clientId: String
    /// The `redirect_uri` of the authorization request (must be repeated in the exchange).
    public var redirectUri: String
    /// The granted scopes.
    public var scope: [String]
    /// The user who logged in.
    public var username: String
    /// The OpenID Connect `nonce`, for the ID token.
    public var nonce: String?
    /// The PKCE challenge, when the request had one.
    public var codeChallenge: String?
    /// The PKCE method (`S256`).
    public var codeChallengeMethod: String?
    /// The DPoP key the code is bound to (token-bound codes, or `dpop_jkt`): the exchange must prove it.
    public var dpopJkt: String?
    /// When the user authenticated.
    public var authTime: Date
    /// Whether the user declined `offline_access` at consent: the exchange then gives no refresh
    /// token (the consent screen says that scope is the refresh token).
    public var refreshTokenDeclined: Bool? = nil

    /// The store kind of codes.
    public static let kind = "code"
    /// How long a code lives.
    public static let lifetime: TimeInterval = 120
}
