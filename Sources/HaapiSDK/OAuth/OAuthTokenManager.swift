import Foundation
import HaapiDriver
import OAuthCore

/// Exchanges the flow's authorization code for tokens, refreshes and revokes them
/// (the seeds' `OAuthTokenManager`).
///
/// Token binding follows the seeds' table: with ``BoundedTokenConfiguration`` (the default)
/// the exchange that is given a ``Dpop`` sends a proof from it, and the key is kept in
/// ``storage`` so that the bound refresh token can be refreshed after a restart; with
/// ``UnboundedTokenConfiguration`` passing a ``Dpop`` is an invalid configuration.
public final class OAuthTokenManager: Sendable {
    /// The configuration.
    public let configuration: HaapiConfiguration
    /// Where the key of bound tokens is kept.
    public let storage: any Storage
    /// The network, or why the configuration gives none (reported by every request).
    let transport: Result<any HTTPTransport, HaapiError>
    let clientAuthentication: @Sendable () async throws -> ClientAuthentication
    private let tokenEndpointResponseListener: (any TokenEndpointResponseListener)?

    /// A manager for the configuration's client, as the seeds make it.
    ///
    /// - Parameters:
    ///   - transport: the network (default: the platform's, with the client authentication
    ///     method's TLS settings; when those are unusable, every request answers
    ///     ``HaapiError/invalidConfiguration(reason:)``).
    ///   - storage: where the DPoP key of bound tokens is kept (default: ``DefaultStorage``).
    ///   - clientAuthentication: the client's credentials, when they are not the configuration's
    ///     (HaapiAccessorBuilder passes the DCR-registered client's).
    public init(
        oauthTokenConfiguration configuration: HaapiConfiguration, transport: (any HTTPTransport)? = nil,
        storage: (any Storage)? = nil, tokenEndpointResponseListener: (any TokenEndpointResponseListener)? = nil,
        clientAuthentication: (@Sendable () async throws -> ClientAuthentication)? = nil
    ) {
        self.configuration = configuration
        self.storage = storage ?? DefaultStorage.make()
        self.tokenEndpointResponseListener = tokenEndpointResponseListener ?? configuration.tokenEndpointResponseListener
        if let transport {
            self.transport = .success(transport)
        } else {
            do {
                self.transport = .success(try URLSessionTransport(configuration: .init(tls: configuration.clientAuthenticationMethod.tlsOptions ?? TLSOptions())))
            } catch {
                self.transport = .failure(.invalidConfiguration(reason: "the TLS settings of the client authentication method are unusable: \(error)"))
            }
        }
        let method = configuration.clientAuthenticationMethod
        let clientID = configuration.clientId
        self.clientAuthentication = clientAuthentication ?? { try method.clientAuthentication(clientID: clientID) }
    }

    /// The storage key of the DPoP key bound to this configuration's tokens.
    var boundKeyStorageKey: String { "haapi-oauth-dpop-key.\(configuration.name)" }

    /// Exchanges an authorization code for tokens.
    ///
    /// - Parameters:
    ///   - code: the code of the ``OAuthAuthorizationResponseStep``.
    ///   - dpop: the flow's key (HaapiManager's), to bind the tokens; required when the server
    ///     issues token-bound codes, refused with an unbounded configuration.
    ///   - codeVerifier: the PKCE verifier, when the flow used PKCE.
    public func fetchAccessToken(with code: String, dpop: Dpop? = nil, codeVerifier: String? = nil) async -> TokenResponse {
        if dpop != nil && configuration.tokenBoundConfiguration.keyPairType == nil {
            return .error(HaapiError.invalidConfiguration(reason: "a DPoP key was passed to fetchAccessToken with UnboundedTokenConfiguration"))
        }
        let response = await request(.authorizationCode(code: code, redirectURI: configuration.appRedirect, codeVerifier: codeVerifier), dpop: dpop)
        if case .successfulToken(let tokens) = response, tokens.isDPoPBound, let dpop {
            rememberBoundKey(dpop)
        }
        return response
    }

    /// Refreshes tokens. A bound refresh token is refreshed with the key it is bound to: the
    /// given one, or the one kept since the code exchange.
    public func refreshAccessToken(with refreshToken: String, dpop: Dpop? = nil) async -> TokenResponse {
        var key = dpop
        if key == nil, configuration.tokenBoundConfiguration.keyPairType != nil {
            do {
                key = try storage.read(key: boundKeyStorageKey).map { try Dpop(privateJWK: JWK(json: $0)) }
            } catch {
                return .error(HaapiError.dpopProofFailure(message: "the key the refresh token is bound to cannot be read", cause: error))
            }
        } else if key != nil, configuration.tokenBoundConfiguration.keyPairType == nil {
            return .error(HaapiError.invalidConfiguration(reason: "a DPoP key was passed to refreshAccessToken with UnboundedTokenConfiguration"))
        }
        return await request(.refreshToken(refreshToken), dpop: key)
    }

    /// Revokes an access token (RFC 7009).
    public func revokeAccessToken(_ token: String) async -> TokenRevocationResponse {
        await revoke(token, hint: .accessToken)
    }

    /// Revokes a refresh token (RFC 7009) and forgets the key it was bound to.
    public func revokeRefreshToken(_ token: String) async -> TokenRevocationResponse {
        let result = await revoke(token, hint: .refreshToken)
        if case .success = result { try? storage.delete(key: boundKeyStorageKey) }
        return result
    }

    // MARK: Exchange

    private func request(_ grant: TokenGrant, dpop: Dpop?) async -> TokenResponse {
        let listener = tokenEndpointResponseListener
        do {
            let client = TokenEndpointClient(
                endpoint: configuration.tokenEndpointURL, clientAuthentication: try await clientAuthentication(),
                transport: try transport.get(), dpop: dpop)
            let (result, response) = try await client.requestToken(grant)
            switch result {
            case .success(let tokens):
                listener?.onSuccess(SuccessTokenHTTPURLResponseContent(response: response, tokens: tokens))
                HaapiLogger.debug(SdkFollowUpTag.oauth, "token response: \(tokens.tokenType), access token \(sensitive: tokens.accessToken)")
                return .successfulToken(tokens)
            case .failure(let error):
                listener?.onTokenError(ErrorTokenHTTPURLResponseContent(response: response, error: error))
                return .errorToken(error)
            }
        } catch {
            let mapped = Self.map(error)
            let response = (error as? TokenEndpointError).map {
                TransportResponse(status: $0.statusCode ?? 0, headers: $0.contentType.map { ["Content-Type": $0] } ?? [:], body: $0.rawBody, url: configuration.tokenEndpointURL)
            }
            listener?.onError(ErrorHTTPURLResponseContent(response: response, error: mapped))
            return .error(mapped)
        }
    }

    private func revoke(_ token: String, hint: TokenRevocationClient.TokenTypeHint) async -> TokenRevocationResponse {
        guard let endpoint = configuration.revocationEndpointURL else {
            return .error(HaapiError.invalidConfiguration(reason: "no revocationEndpointURL is configured"))
        }
        do {
            let client = TokenRevocationClient(endpoint: endpoint, clientAuthentication: try await clientAuthentication(), transport: try transport.get())
            try await client.revoke(token, hint: hint)
            return .success
        } catch let error as OAuthErrorResponse {
            return .errorToken(error)
        } catch let error as TokenEndpointError {
            return .error(HaapiError(error))
        } catch {
            return .error(Self.map(error))
        }
    }

    private func rememberBoundKey(_ dpop: Dpop) {
        guard let jwk = dpop.signingKey.privateJWK else {
            HaapiLogger.warning(SdkFollowUpTag.oauth, "the DPoP key cannot be exported; the bound refresh token will not survive a restart")
            return
        }
        do {
            try storage.write(key: boundKeyStorageKey, data: JSONValue.encodeSorted(jwk))
        } catch {
            HaapiLogger.error(SdkFollowUpTag.oauth, "the DPoP key could not be stored: \(error)")
        }
    }

    static func map(_ error: any Error) -> any Error {
        switch error {
        case let error as DPoPError:
            return error.code == .keyCreationFailed
                ? HaapiError.dpopKeyCreationFailure(cause: error) : HaapiError.dpopProofFailure(message: error.message, cause: error)
        case let error as HTTPTransportError:
            return HaapiError.communication(message: "the token request failed", cause: error)
        default:
            return error
        }
    }

    // MARK: Completion handlers

    /// ``fetchAccessToken(with:dpop:codeVerifier:)`` with a completion handler, as the seeds write it.
    public func fetchAccessToken(with code: String, dpop: Dpop? = nil, completionHandler: @escaping OAuthCompletion) {
        Task { completionHandler(await fetchAccessToken(with: code, dpop: dpop)) }
    }

    /// ``refreshAccessToken(with:dpop:)`` with a completion handler.
    public func refreshAccessToken(with refreshToken: String, completionHandler: @escaping OAuthCompletion) {
        Task { completionHandler(await refreshAccessToken(with: refreshToken)) }
    }

    /// ``revokeAccessToken(_:)`` with a completion handler.
    public func revokeAccessToken(with token: String, completionHandler: @escaping OAuthRevocationCompletion) {
        Task { completionHandler(await revokeAccessToken(token)) }
    }

    /// ``revokeRefreshToken(_:)`` with a completion handler.
    public func revokeRefreshToken(with token: String, completionHandler: @escaping OAuthRevocationCompletion) {
        Task { completionHandler(await revokeRefreshToken(token)) }
    }
}

/// Receives the outcome of a token request (the seeds' `OAuthCompletion`).
public typealias OAuthCompletion = @Sendable (_ tokenResponse: TokenResponse) -> Void

/// Receives the outcome of a revocation (the seeds' `OAuthRevocationCompletion`).
public typealias OAuthRevocationCompletion = @Sendable (_ response: TokenRevocationResponse) -> Void

