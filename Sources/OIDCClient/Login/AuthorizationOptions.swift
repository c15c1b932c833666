import OAuthCore

/// Per-login choices of the authorization request (OpenID Connect Core §3.1.2.1): how the
/// provider should treat this login, beyond what ``OIDCConfiguration`` fixes for every login.
public struct AuthorizationOptions: Sendable {
    /// `prompt`: `login` forces a new authentication, `none` forbids any UI, `consent`, `select_account`.
    public var prompt: String?
    /// `max_age`: the longest time in seconds since the user last authenticated; the ID token
    /// must then carry `auth_time`, and this client checks it.
    public var maxAge: Int?
    /// `acr_values`: the authentication methods wanted, most preferred first.
    public var acrValues: [String]
    /// `login_hint`: who is expected to log in (an email address, a user name).
    public var loginHint: String?
    /// Scopes for this login instead of the configured ones (`openid` is added when missing).
    public var scopes: [String]?
    /// Any other parameters, sent as given (`ui_locales`, `claims`, a provider's own).
    public var additionalParameters: [(String, String)]

    /// Makes options; every member is optional.
    public init(
        prompt: String? = nil, maxAge: Int? = nil, acrValues: [String] = [], loginHint: String? = nil,
        scopes: [String]? = nil, additionalParameters: [(String, String)] = []
    ) {
        self.prompt = prompt
        self.maxAge = maxAge
        self.acrValues = acrValues
        self.loginHint = loginHint
        self.scopes = scopes
        self.additionalParameters = additionalParameters
    }
}
