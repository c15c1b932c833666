import Foundation

// The token endpoint and ID-token checks of ``TokenSession`` (the code exchange of `OIDCClient` shares them).
extension TokenSession {
    /// The issuer a client assertion names: only one that discovery confirmed (a provider made
    /// from endpoints alone has a stand-in, and its assertions name the token endpoint).
    func assertionIssuer(_ metadata: ProviderMetadata) -> String? {
        provider.issuer == nil ? nil : metadata.issuer
    }

    /// Sends a token request (with the options' and `additionalParameters`) and returns the
    /// tokens, or throws the typed refusal.
    package func requestTokens(
        _ grant: TokenGrant, metadata: ProviderMetadata, dpop: Dpop?, additionalParameters: [(String, String)] = []
    ) async throws -> TokenSuccessResponse {
        let client = TokenEndpointClient(
            endpoint: metadata.tokenEndpoint, clientAuthentication: try await clientAuthentication(), transport: provider.transport,
            dpop: dpop, issuer: assertionIssuer(metadata))
        let result: TokenEndpointResponse
        do {
            let exchange = try await client.requestToken(
                grant, additionalParameters: options.additionalTokenParameters + additionalParameters)
            options.tokenEndpointObserver?(.success(exchange))
            result = exchange.result
        } catch {
            options.tokenEndpointObserver?(.failure(error))
            switch error {
            case let error as UnexpectedResponseError:
                throw OIDCError(
                    .tokenRequestFailed, "the token endpoint answered HTTP \(error.statusCode) with no tokens and no OAuth error",
                    cause: error)
            case let error as TokenEndpointError:
                throw OIDCError(.tokenRequestFailed, error.detail, cause: error)
            default:
                throw error
            }
        }
        switch result {
        case .success(let tokens):
            return tokens
        case .failure(let refusal):
            throw OIDCError(
                .tokenRequestFailed, "the token endpoint refused the request: \(refusal.errorDescription ?? refusal.error)",
                serverError: refusal.error,
                cause: refusal)
        }
    }

    /// Validates an ID token from this session's provider for this client.
    func validate(
        _ raw: String, metadata: ProviderMetadata, nonce: String?, accessToken: String?, maxAge: Int? = nil,
        maximumAge: TimeInterval = 600
    ) async throws -> IDToken {
        let validator = IDTokenValidator(
            issuer: metadata.issuer, clientID: clientID, allowedAlgorithms: options.allowedSigningAlgorithms,
            clockSkew: options.clockSkew, maximumAge: maximumAge)
        return try await validator.validate(raw, keys: try await provider.keys(), nonce: nonce, accessToken: accessToken, maxAge: maxAge)
    }

    /// Whether a refused refresh means the session is over: `invalid_grant` (RFC 6749 §5.2), or
    /// a bare HTTP 400 without an OAuth error body, which is how some providers (Glewlwyd)
    /// refuse a reused, expired or revoked refresh token. Other refusals (`invalid_client`,
    /// server errors) are configuration or transient problems and keep the session.
    static func endsSession(_ error: OIDCError) -> Bool {
        if error.serverError == "invalid_grant" { return true }
        if let plain = error.firstCause(UnexpectedResponseError.self), plain.statusCode == 400, plain.body.isEmpty { return true }
        return false
    }

    /// Whether an ID token failed its checks (signature, claims, hashes), as opposed to not
    /// being checkable now (no keys published or reachable, discovery failing, cancellation).
    static func isAboutTheIDToken(_ error: OIDCError) -> Bool {
        [.invalidIDToken, .nonceMismatch, .atHashMismatch].contains(error.code)
    }

    static func exportedKey(of dpop: Dpop?, for tokens: TokenSuccessResponse) throws -> JWK? {
        guard tokens.isDPoPBound else { return nil }
        guard let key = dpop?.signingKey.privateJWK else {
            throw OIDCError(
                .invalidConfiguration,
                dpop == nil
                    ? "the tokens are DPoP-bound, but no key was given to keep with them"
                    : "the tokens are bound to a key that cannot be exported (a Secure Enclave key), so the session cannot keep it")
        }
        return key
    }
}
