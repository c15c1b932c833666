import Foundation

/// The parameters of an authorization request (RFC 6749 §4.1.1, OpenID Connect Core §3.1.2.1,
/// RFC 7636 §4.3, RFC 9449 §10), written once for the browser login and the HAAPI flow: the
/// protocol's parameters in a fixed order, then the app's extra ones, which never replace or
/// repeat a parameter already set nor name a security parameter (a second `state` or
/// `redirect_uri` would let an extra parameter undo what the protocol checks).
package struct AuthorizationQuery: Sendable {
    /// `client_id`.
    package var clientID: String
    /// `redirect_uri`, as registered.
    package var redirectURI: String
    /// `scope`, sent when not empty.
    package var scopes: [String] = []
    /// `state`.
    package var state: String?
    /// `nonce`.
    package var nonce: String?
    /// The PKCE challenge to send (`code_challenge`, `code_challenge_method`).
    package var pkce: PKCE?
    /// `prompt`.
    package var prompt: String?
    /// `max_age`.
    package var maxAge: Int?
    /// `acr_values`, sent when not empty.
    package var acrValues: [String] = []
    /// `login_hint`.
    package var loginHint: String?
    /// `ui_locales`, sent when not empty.
    package var uiLocales: [String] = []
    /// `dpop_jkt`: the thumbprint of the key the code is bound to.
    package var dpopThumbprint: String?
    /// Other parameters, in order (`ui_locales`, `claims`, ...); those naming a parameter already
    /// set or a security parameter are dropped.
    package var additionalParameters: [(String, String)] = []

    /// A request of `clientID` for a code sent to `redirectURI`.
    package init(clientID: String, redirectURI: String) {
        self.clientID = clientID
        self.redirectURI = redirectURI
    }

    /// The parameters, in order: `response_type=code` and the protocol's, then the extra ones.
    package var parameters: [(String, String)] {
        var parameters: [(String, String)] = [("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI)]
        if !scopes.isEmpty { parameters.append(("scope", scopes.joined(separator: " "))) }
        if let state { parameters.append(("state", state)) }
        if let nonce { parameters.append(("nonce", nonce)) }
        if let pkce { parameters += [("code_challenge", pkce.challenge), ("code_challenge_method", pkce.method)] }
        if let prompt { parameters.append(("prompt", prompt)) }
        if let maxAge { parameters.append(("max_age", String(maxAge))) }
        if !acrValues.isEmpty { parameters.append(("acr_values", acrValues.joined(separator: " "))) }
        if let loginHint { parameters.append(("login_hint", loginHint)) }
        if !uiLocales.isEmpty { parameters.append(("ui_locales", uiLocales.joined(separator: " "))) }
        if let dpopThumbprint { parameters.append(("dpop_jkt", dpopThumbprint)) }
        let reserved = Self.securityParameters.union(parameters.map(\.0))
        return parameters + additionalParameters.filter { !reserved.contains($0.0) }
    }

    /// The names an extra parameter may never take, set or not: what binds the response, the
    /// code and the ID token to this request.
    package static let securityParameters: Set<String> = [
        "response_type", "client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge", "code_challenge_method", "max_age",
        "dpop_jkt", "request", "request_uri",
    ]
}
