import Foundation
import OAuthCore

/// One authorization request (OpenID Connect Core §3.1.2.1 with PKCE, RFC 7636) and the
/// secrets needed to check its response and redeem its code.
///
/// Made fresh for every login: `state`, `nonce` and the PKCE verifier are single-use.
public struct AuthorizationRequest: Sendable {
    /// `state`: binds the response to this request (CSRF protection).
    public let state: String
    /// `nonce`: binds the ID token to this request (replay protection).
    public let nonce: String
    /// The PKCE pair; S256 always.
    public let pkce: PKCE
    /// The redirect URI sent, with the port the user agent actually listens on.
    public let redirectURI: URL
    /// `max_age`, when sent: the ID token must then carry a recent enough `auth_time`.
    public let maxAge: Int?
    /// The parameters of the request, in order (without PAR) or those pushed (with PAR).
    public let parameters: [(String, String)]

    /// Makes a request's parameters.
    /// - Parameters:
    ///   - configuration: the client whose request it is (its id and scopes).
    ///   - redirectURI: the redirect URI to send, with the port the user agent listens on.
    ///   - options: per-login parameters (`prompt`, `max_age`, `acr_values`, `login_hint`, extras).
    ///   - dpopThumbprint: the `dpop_jkt` to bind the code to (RFC 9449 §10), if any.
    public init(
        configuration: OIDCConfiguration, redirectURI: URL, options: AuthorizationOptions = AuthorizationOptions(),
        dpopThumbprint: String? = nil
    ) {
        state = RandomToken.make()
        nonce = RandomToken.make()
        pkce = PKCE()
        self.redirectURI = redirectURI
        maxAge = options.maxAge
        var query = AuthorizationQuery(clientID: configuration.clientID, redirectURI: redirectURI.absoluteString)
        query.scopes = configuration.requestedScopes(options)
        (query.state, query.nonce, query.pkce) = (state, nonce, pkce)
        (query.prompt, query.maxAge, query.acrValues, query.loginHint) = (
            options.prompt, options.maxAge, options.acrValues, options.loginHint
        )
        query.dpopThumbprint = dpopThumbprint
        query.additionalParameters = options.additionalParameters
        parameters = query.parameters
    }

    /// The URL to open in the browser, with every parameter in the query.
    public func url(authorizationEndpoint: URL) -> URL {
        authorizationEndpoint.appendingQuery(parameters)
    }

    /// Pushes the parameters to the PAR endpoint (RFC 9126 §2) and returns the short URL to
    /// open, which carries only `client_id` and the `request_uri` the provider gave.
    /// - Throws: ``/OAuthCore/OIDCError`` `OIDCError.Code.authorizationError` when the provider refuses,
    ///   `OIDCError.Code.invalidMetadata` when its answer has no `request_uri`.
    public func pushedURL(
        metadata: ProviderMetadata, parEndpoint: URL, clientAuthentication: ClientAuthentication, transport: any HTTPTransport
    ) async throws -> URL {
        // The PAR endpoint authenticates clients as the token endpoint does (RFC 9126 §2).
        let response = try await transport.send(
            try clientAuthentication.form(parEndpoint, parameters: parameters.filter { $0.0 != "client_id" }, metadata: metadata))
        guard response.isSuccess else {
            let refusal = OAuthErrorResponse(response)
            throw OIDCError(
                .authorizationError,
                "the PAR endpoint answered HTTP \(response.status): \(refusal?.serverDescription ?? refusal?.error ?? response.bodyText)",
                serverError: refusal?.error, cause: refusal ?? UnexpectedResponseError(response, from: "the PAR endpoint"))
        }
        guard let requestURI = (try? JSONValue(parsing: response.body))?["request_uri"]?.stringValue else {
            throw OIDCError(.invalidMetadata, "the PAR endpoint's answer has no \"request_uri\"")
        }
        return metadata.authorizationEndpoint.appendingQuery([("client_id", clientAuthentication.clientID), ("request_uri", requestURI)])
    }
}

extension ClientAuthentication {
    /// A form POST of `parameters` to `endpoint`, one of the endpoints `metadata` describes, with
    /// the client's credentials (an assertion's audience chosen by ``assertionAudience``); the
    /// body names the client even when a header authenticates it (PAR, device authorization).
    func form(_ endpoint: URL, parameters: [(String, String)], metadata: ProviderMetadata) throws -> TransportRequest {
        var form = parameters
        var headers: HeaderFields = ["Accept": "application/json"]
        try apply(
            to: &form, headers: &headers,
            recipient: .init(endpoint: endpoint, tokenEndpoint: metadata.tokenEndpoint, issuer: metadata.issuer))
        if !form.contains(where: { $0.0 == "client_id" }) { form.append(("client_id", clientID)) }
        return .form(endpoint, parameters: form, headers: headers)
    }
}
