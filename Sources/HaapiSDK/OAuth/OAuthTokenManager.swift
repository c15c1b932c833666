import Foundation
import HaapiDriver
import OAuthCore

/// Exchanges the flow's authorization code for tokens, refreshes and revokes them
/// (the seeds' `OAuthTokenManager`).
///
/// A face over the package's one token lifecycle: the tokens of the code exchange and the DPoP
/// key they are bound to are kept as one ``/OAuthCore/AuthState`` in ``storage`` (under
/// `haapi-token-session.<configuration name>`, where ``tokenSession(storage:storageKey:lock:issuer:lockTimeout:)``
/// finds them), and refreshes go through a ``/OAuthCore/TokenSession``: callers refreshing the same token
/// at once share one request, and a rotated refresh token is kept.
///
/// Token binding follows the seeds' table: with ``/HaapiDriver/BoundedTokenConfiguration`` (the default)
/// the exchange that is given a ``/OAuthCore/Dpop`` sends a proof from it, and the key is kept with the
/// tokens so that the bound refresh token can be refreshed after a restart; with
/// ``/HaapiDriver/UnboundedTokenConfiguration`` passing a ``/OAuthCore/Dpop`` is an invalid configuration.
public final class OAuthTokenManager: NSObject, Sendable {
    /// The configuration.
    public let configuration: HaapiConfiguration
    /// The configuration, as Curity names it.
    public var oauthTokenConfiguration: any OAuthTokenConfigurable { configuration }
    /// Where the tokens and the key of bound tokens are kept.
    public let storage: any Storage
    /// The network, or why the configuration gives none (reported by every request).
    let transport: Result<any HTTPTransport, HaapiError>
    let clientAuthentication: @Sendable () async throws -> ClientAuthentication
    /// The lifecycle of this configuration's tokens, when the configuration gives a network.
    private let session: Result<TokenSession, HaapiError>

    /// A manager for the configuration's client, as the seeds make it.
    ///
    /// - Parameters:
    ///   - transport: the network (default: the platform's, with the configuration's timeout and
    ///     its client authentication method's TLS settings; when those are unusable, every request answers
    ///     ``/HaapiDriver/HaapiError/invalidConfiguration(reason:)``).
    ///   - storage: where tokens and the DPoP key of bound tokens are kept (default: ``/HaapiDriver/DefaultStorage``).
    ///   - tokenEndpointResponseListener: receives every token-endpoint response raw, in place of
    ///     the configuration's listener (default: the configuration's, if any).
    ///   - clientAuthentication: the client's credentials, when they are not the configuration's
    ///     (HaapiAccessorBuilder passes the DCR-registered client's).
    ///   - oauthTokenConfiguration: a ``HaapiConfiguration``, or an app's own
    ///     ``OAuthTokenConfigurable`` (see ``HaapiConfiguration/init(oauthTokenConfigurable:)``).
    public init(
        oauthTokenConfiguration: any OAuthTokenConfigurable, transport: (any HTTPTransport)? = nil,
        storage: (any Storage)? = nil, tokenEndpointResponseListener: (any TokenEndpointResponseListener)? = nil,
        clientAuthentication: (@Sendable () async throws -> ClientAuthentication)? = nil
    ) {
        let configuration = HaapiConfiguration(oauthTokenConfigurable: oauthTokenConfiguration)
        self.configuration = configuration
        let storage = storage ?? DefaultStorage.make()
        self.storage = storage
        if let transport {
            self.transport = .success(transport)
        } else {
            do {
                self.transport = .success(try configuration.defaultTransport())
            } catch let error as HaapiError {
                self.transport = .failure(error)
            } catch {
                self.transport = .failure(
                    .invalidConfiguration(reason: "the TLS settings of the client authentication method are unusable: \(error)"))
            }
        }
        let method = configuration.clientAuthenticationMethod
        let clientID = configuration.clientId
        let clientAuthentication = clientAuthentication ?? { try method.clientAuthentication(clientID: clientID) }
        self.clientAuthentication = clientAuthentication
        var options = TokenSession.Options()
        options.tokenEndpointObserver = Self.observer(
            tokenEndpointResponseListener ?? configuration.tokenEndpointResponseListener, endpoint: configuration.tokenEndpointURL)
        self.session = self.transport.flatMap { transport in
            Result {
                TokenSession(
                    clientID: clientID, provider: try configuration.provider(issuer: nil, transport: transport), storage: storage,
                    storageKey: configuration.tokenSessionStorageKey, options: options, clientAuthentication: clientAuthentication)
            }.mapError { .invalidConfiguration(reason: "\($0)") }
        }
    }

    /// Where the key of bound tokens was kept before it was kept with the tokens (still read).
    var legacyBoundKeyStorageKey: String { "haapi-oauth-dpop-key.\(configuration.name)" }

    /// Exchanges an authorization code for tokens, and keeps them with the key they are bound to.
    ///
    /// - Parameters:
    ///   - code: the code of the ``OAuthAuthorizationResponseStep``.
    ///   - dpop: the flow's key (HaapiManager's), to bind the tokens; required when the server
    ///     issues token-bound codes, refused with an unbounded configuration.
    ///   - additionalParameters: more parameters of the token request (`resource`, ...).
    ///   - codeVerifier: the PKCE verifier, when the flow used PKCE.
    public func fetchAccessToken(
        with code: String, dpop: Dpop? = nil, additionalParameters: [String: String]? = nil, codeVerifier: String? = nil
    ) async -> TokenResponse {
        if dpop != nil && !configuration.tokenBoundConfiguration.bindsTokens {
            return .error(
                HaapiError.invalidConfiguration(reason: "a DPoP key was passed to fetchAccessToken with UnboundedTokenConfiguration"))
        }
        let extra = Self.parameters(additionalParameters)
        return await outcome {
            let session = try self.session.get()
            let grant = TokenGrant.authorizationCode(code: code, redirectURI: self.configuration.appRedirect, codeVerifier: codeVerifier)
            let tokens = try await session.requestTokens(
                grant, metadata: try await session.provider.metadata(), dpop: dpop, additionalParameters: extra)
            do {
                try await session.start(with: tokens, dpop: dpop)
            } catch {
                // The tokens are the app's all the same; only their refresh after a restart is lost.
                HaapiLogger.warning(
                    SdkFollowUpTag.oAuth, "the tokens cannot be kept (\(error)); a bound refresh token will not survive a restart")
            }
            return tokens
        }
    }

    /// Refreshes tokens. A bound refresh token is refreshed with the key it is bound to: the
    /// given one, or the one kept since the code exchange. Callers refreshing the same token at
    /// the same time share one request and its answer.
    /// - Parameters:
    ///   - refreshToken: the refresh token to present.
    ///   - dpop: the key the refresh token is bound to, when it is not the one kept since the code exchange.
    ///   - additionalParameters: more parameters of the token request (callers that
    ///     join a refresh under way share its parameters).
    public func refreshAccessToken(
        with refreshToken: String, dpop: Dpop? = nil, additionalParameters: [String: String]? = nil
    ) async -> TokenResponse {
        let bound = configuration.tokenBoundConfiguration.bindsTokens
        if dpop != nil && !bound {
            return .error(
                HaapiError.invalidConfiguration(reason: "a DPoP key was passed to refreshAccessToken with UnboundedTokenConfiguration"))
        }
        var key = dpop
        if key == nil, bound {
            do {
                key = try await boundKey(forRefreshToken: refreshToken)
            } catch {
                return .error(HaapiError.dpopProofFailure(message: "the key the refresh token is bound to cannot be read", cause: error))
            }
        }
        let extra = Self.parameters(additionalParameters)
        return await outcome { [key] in
            try await self.session.get().refresh(presenting: refreshToken, dpop: key, additionalParameters: extra)
        }
    }

    /// Revokes an access token (RFC 7009).
    public func revokeAccessToken(with token: String) async -> TokenRevocationResponse {
        await revoke(token, hint: .accessToken)
    }

    /// Revokes a refresh token (RFC 7009) and forgets it, with the key it was bound to.
    public func revokeRefreshToken(with token: String) async -> TokenRevocationResponse {
        let result = await revoke(token, hint: .refreshToken)
        if case .success = result { try? storage.delete(key: legacyBoundKeyStorageKey) }
        return result
    }

    /// Form parameters, in order of their names.
    private static func parameters(_ dictionary: [String: String]?) -> [(String, String)] {
        (dictionary ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    // MARK: The token session

    /// The key a refresh token is bound to: the kept tokens' when it is theirs, else the one an
    /// earlier version kept alone.
    private func boundKey(forRefreshToken refreshToken: String) async throws -> Dpop? {
        let session = try self.session.get()
        if let kept = try await session.authState, kept.refreshToken == refreshToken, kept.dpopKey != nil {
            return try await session.dpopHolder()
        }
        return try storage.read(key: legacyBoundKeyStorageKey).map { try Dpop(privateJWK: JWK(json: $0)) }
    }

    /// The key the kept tokens are bound to, when `tokens` are those tokens; else the key an
    /// earlier version kept alone.
    func boundKey(for tokens: SuccessfulTokenResponse) async throws -> Dpop? {
        let session = try self.session.get()
        if let kept = try await session.authState, kept.accessToken == tokens.accessToken, kept.dpopKey != nil {
            return try await session.dpopHolder()
        }
        return try storage.read(key: legacyBoundKeyStorageKey).map { try Dpop(privateJWK: JWK(json: $0)) }
    }

    /// Revokes a token; the server's OAuth error (an ``/OAuthCore/OAuthErrorResponse``) or the SDK's error
    /// is the ``TokenRevocationResponse/error(_:)``.
    private func revoke(_ token: String, hint: TokenRevocationClient.TokenTypeHint) async -> TokenRevocationResponse {
        do {
            try await session.get().revoke(presenting: token, hint: hint)
            return .success
        } catch {
            let endpoint = configuration.revocationEndpointURL ?? configuration.tokenEndpointURL
            return .error(error.firstCause(OAuthErrorResponse.self) ?? HaapiError.wrapping(error, "token request", url: endpoint))
        }
    }

    /// The seeds' outcome of a token request: tokens, the server's OAuth error, or the SDK's error.
    private func outcome(_ request: @Sendable () async throws -> TokenSuccessResponse) async -> TokenResponse {
        do {
            let tokens = try await request()
            HaapiLogger.debug(SdkFollowUpTag.oAuth, "token response: \(tokens.tokenType), access token \(sensitive: tokens.accessToken)")
            return .successfulToken(SuccessfulTokenResponse(tokens))
        } catch {
            return error.firstCause(OAuthErrorResponse.self).map { .errorToken(ErrorTokenResponse($0)) }
                ?? .error(HaapiError.wrapping(error, "token request", url: configuration.tokenEndpointURL))
        }
    }

    /// Tells `listener` about every token-endpoint exchange, as the seeds' listener expects.
    private static func observer(_ listener: (any TokenEndpointResponseListener)?, endpoint: URL) -> TokenEndpointObserver? {
        guard let listener else { return nil }
        return { exchange in
            switch exchange {
            case .success((.success(let tokens), let response)):
                listener.onSuccess(SuccessTokenHTTPURLResponseContent(response: response, tokens: SuccessfulTokenResponse(tokens)))
            case .success((.failure(let refusal), let response)):
                listener.onTokenError(ErrorTokenHTTPURLResponseContent(response: response, error: ErrorTokenResponse(refusal)))
            case .failure(let error):
                let response =
                    error.firstCause(UnexpectedResponseError.self)?.response ?? error.firstCause(TokenEndpointError.self)?.response
                listener.onError(
                    ErrorHTTPURLResponseContent(response: response, error: HaapiError.wrapping(error, "token request", url: endpoint)))
            }
        }
    }

    // MARK: Completion handlers

    /// ``fetchAccessToken(with:dpop:additionalParameters:codeVerifier:)`` with a completion
    /// handler, as Curity's SDK 5.0 declares it; called on a task of its own.
    public func fetchAccessToken(
        with authorizationCode: String, dpop: Dpop? = nil, additionalParameters: [String: String]? = nil,
        completionHandler: @escaping OAuthCompletion
    ) {
        Task { completionHandler(await fetchAccessToken(with: authorizationCode, dpop: dpop, additionalParameters: additionalParameters)) }
    }

    /// ``refreshAccessToken(with:dpop:additionalParameters:)`` with a completion handler.
    public func refreshAccessToken(
        with refreshToken: String, additionalParameters: [String: String]? = nil, completionHandler: @escaping OAuthCompletion
    ) {
        Task { completionHandler(await refreshAccessToken(with: refreshToken, additionalParameters: additionalParameters)) }
    }

    /// ``revokeAccessToken(with:)`` with a completion handler.
    public func revokeAccessToken(with token: String, completionHandler: @escaping OAuthRevocationCompletion) {
        Task { completionHandler(await revokeAccessToken(with: token)) }
    }

    /// ``revokeRefreshToken(with:)`` with a completion handler.
    public func revokeRefreshToken(with token: String, completionHandler: @escaping OAuthRevocationCompletion) {
        Task { completionHandler(await revokeRefreshToken(with: token)) }
    }
}

/// Receives the outcome of a token request (the seeds' `OAuthCompletion`).
public typealias OAuthCompletion = @Sendable (_ tokenResponse: TokenResponse) -> Void

/// Receives the outcome of a revocation (the seeds' `OAuthRevocationCompletion`).
public typealias OAuthRevocationCompletion = @Sendable (_ response: TokenRevocationResponse) -> Void
