import Foundation
import OAuthCore

/// Everything an ``OIDCClient`` needs to know about the provider and the app: one value,
/// built once (from a profile file or an app's `config.json`, as in the seeds).
public struct OIDCConfiguration: Sendable {
    /// The provider's issuer identifier; discovery happens at `{issuer}/.well-known/openid-configuration`.
    public var issuer: URL
    /// How the client authenticates at the token, PAR and revocation endpoints
    /// (``/OAuthCore/ClientAuthentication/none(clientID:)`` for a native app, the usual case).
    public var clientAuthentication: ClientAuthentication
    /// Where the provider sends the browser back. For the loopback user agent an
    /// `http://127.0.0.1:PORT/path` URL; port `0` picks a free port for each login (RFC 8252 §7.3).
    public var redirectURI: URL
    /// Where the provider sends the browser after logout (RP-Initiated Logout 1.0), if anywhere.
    public var postLogoutRedirectURI: URL?
    /// The scopes to request; `openid` is added when missing.
    public var scopes: [String]
    /// The ID-token signature algorithms accepted. Never `none` (it cannot be expressed) and,
    /// since the client holds no shared secret, no HMAC algorithm: a public key used as an HMAC
    /// secret would let anyone forge tokens.
    public var allowedSigningAlgorithms: Set<JWSAlgorithm>
    /// How far the provider's clock and this device's may disagree when checking `exp` and `iat`.
    public var clockSkew: TimeInterval
    /// The oldest ID-token `iat` accepted, relative to now.
    public var maximumIDTokenAge: TimeInterval
    /// How long a login or logout in the browser may take before `OIDCError.Code.timedOut`,
    /// in seconds (default 300).
    public var userAgentTimeout: TimeInterval
    /// Whether to send the authorization request by PAR (RFC 9126) when the provider offers
    /// it. A provider that requires PAR gets it regardless.
    public var usePushedAuthorizationRequests: Bool
    /// Whether tokens are DPoP-bound (RFC 9449): a key is made for each login, its thumbprint
    /// sent as `dpop_jkt`, and every token request and API call carries a proof.
    public var useDPoP: Bool
    /// Extra form parameters for every token request (`resource`, `audience`, ...).
    public var additionalTokenParameters: [(String, String)]

    /// Makes a configuration.
    public init(
        issuer: URL, clientAuthentication: ClientAuthentication, redirectURI: URL, postLogoutRedirectURI: URL? = nil,
        scopes: [String] = ["openid"], allowedSigningAlgorithms: Set<JWSAlgorithm> = [.rs256, .ps256, .es256, .es384, .es512, .edDSA],
        clockSkew: TimeInterval = 120, maximumIDTokenAge: TimeInterval = 600, userAgentTimeout: TimeInterval = 300,
        usePushedAuthorizationRequests: Bool = false, useDPoP: Bool = false, additionalTokenParameters: [(String, String)] = []
    ) {
        self.issuer = issuer
        self.clientAuthentication = clientAuthentication
        self.redirectURI = redirectURI
        self.postLogoutRedirectURI = postLogoutRedirectURI
        self.scopes = scopes.contains("openid") ? scopes : ["openid"] + scopes
        self.allowedSigningAlgorithms = allowedSigningAlgorithms
        self.clockSkew = clockSkew
        self.maximumIDTokenAge = maximumIDTokenAge
        self.userAgentTimeout = userAgentTimeout
        self.usePushedAuthorizationRequests = usePushedAuthorizationRequests
        self.useDPoP = useDPoP
        self.additionalTokenParameters = additionalTokenParameters
    }

    /// The client id.
    public var clientID: String { clientAuthentication.clientID }

    /// The scopes a request asks for: the options' or these, `openid` first when missing.
    func requestedScopes(_ options: AuthorizationOptions) -> [String] {
        var scopes = options.scopes ?? self.scopes
        if !scopes.contains("openid") { scopes.insert("openid", at: 0) }
        return scopes
    }
}
