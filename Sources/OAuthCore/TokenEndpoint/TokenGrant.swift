/// The grant of a token request (RFC 6749 §4 and §6).
public enum TokenGrant: Sendable, Hashable {
    /// `authorization_code` (§4.1.3), with the PKCE `code_verifier` if one was used.
    case authorizationCode(code: String, redirectURI: String?, codeVerifier: String?)
    /// `refresh_token` (§6), optionally narrowing the scope.
    case refreshToken(String, scope: String? = nil)
    /// `client_credentials` (§4.4).
    case clientCredentials(scope: String?)
    /// `urn:ietf:params:oauth:grant-type:device_code` (RFC 8628 §3.4).
    case deviceCode(String)
    /// Any other grant type, with its parameters.
    case other(grantType: String, parameters: [String: String])

    /// The grant type of RFC 8628's device authorization grant.
    public static let deviceCodeGrantType = "urn:ietf:params:oauth:grant-type:device_code"

    /// The form parameters of the grant.
    var parameters: [(String, String)] {
        switch self {
        case .authorizationCode(let code, let redirectURI, let verifier):
            var list = [("grant_type", "authorization_code"), ("code", code)]
            if let redirectURI { list.append(("redirect_uri", redirectURI)) }
            if let verifier { list.append(("code_verifier", verifier)) }
            return list
        case .refreshToken(let token, let scope):
            var list = [("grant_type", "refresh_token"), ("refresh_token", token)]
            if let scope { list.append(("scope", scope)) }
            return list
        case .clientCredentials(let scope):
            var list = [("grant_type", "client_credentials")]
            if let scope { list.append(("scope", scope)) }
            return list
        case .deviceCode(let code):
            return [("grant_type", Self.deviceCodeGrantType), ("device_code", code)]
        case .other(let grantType, let parameters):
            return [("grant_type", grantType)] + parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
    }
}
