import Foundation
import OAuthCore

/// Signs a user in to an OpenID Provider through the system browser (RFC 8252, the AppAuth
/// way) and keeps the session: tokens saved in a ``Storage``, refreshed once however many
/// callers need a new one, revoked and ended at logout.
///
/// ```swift
/// let client = OIDCClient(configuration: configuration, transport: try URLSessionTransport(),
///                         storage: try FileStorage(directory: directory))
/// try await client.login(using: LoopbackUserAgent(listen: LoopbackRedirectListener.factory))
/// let token = try await client.validAccessToken(minimumLifetime: 30)
/// ```
///
/// An actor: every method may be called from any task. Built on OAuthCore only.
public actor OIDCClient {
    /// The configuration.
    public nonisolated let configuration: OIDCConfiguration
    /// The transport every request goes through.
    public nonisolated let transport: any HTTPTransport
    /// Where the ``AuthState`` is kept.
    public nonisolated let storage: any Storage
    /// The key of the ``AuthState`` in ``storage``.
    public nonisolated let storageKey: String

    private var metadata: ProviderMetadata?
    private var keySet: ProviderKeySet?
    private var state: AuthState?
    private var stateLoaded = false
    private var dpop: Dpop?
    private var refreshTask: Task<AuthState, any Error>?
    /// The login or logout waiting for its redirect to come back through the app (a
    /// ``DeepLinkUserAgent``'s), and the `state`s of the last ones answered.
    private nonisolated let pendingRedirect = LockedValue<(pending: PendingRedirect?, answered: [String])>((nil, []))

    /// Makes a client. Nothing is sent until a method needs it.
    /// - Parameters:
    ///   - storage: where the session is saved; by default only in memory (a CLI that keeps the
    ///     ``AuthState`` in its own file reads ``authState`` and restores with ``setAuthState(_:)``).
    ///   - storageKey: the key of the session in `storage`.
    public init(
        configuration: OIDCConfiguration, transport: any HTTPTransport, storage: any Storage = InMemoryStorage(),
        storageKey: String = "oidc-auth-state"
    ) {
        self.configuration = configuration
        self.transport = transport
        self.storage = storage
        self.storageKey = storageKey
    }

    // MARK: Discovery

    /// The provider's metadata, discovered on first use and then kept.
    /// - Throws: ``OIDCError`` ``OIDCError/Code/discoveryFailed``, ``OIDCError/Code/invalidMetadata``
    ///   or ``OIDCError/Code/issuerMismatch``.
    @discardableResult
    public func discover() async throws -> ProviderMetadata {
        if let metadata { return metadata }
        let discovered = try await ProviderMetadata.discover(issuer: configuration.issuer, transport: transport)
        metadata = discovered
        return discovered
    }

    /// Uses metadata the app already has (from a previous ``discover()``, or configured by hand)
    /// instead of fetching it. Its issuer must be the configured one.
    /// - Throws: ``OIDCError`` ``OIDCError/Code/issuerMismatch``.
    public func use(metadata: ProviderMetadata) throws {
        guard metadata.issuer == configuration.issuer.absoluteString else {
            throw OIDCError(.issuerMismatch, "the metadata is for \"\(metadata.issuer)\", not \"\(configuration.issuer.absoluteString)\"")
        }
        self.metadata = metadata
        keySet = nil
    }

    private func providerKeys(_ metadata: ProviderMetadata) throws -> ProviderKeySet {
        if let keySet { return keySet }
        guard let uri = metadata.jwksURI else {
            throw OIDCError(.invalidMetadata, "the provider publishes no jwks_uri, so its ID tokens cannot be verified")
        }
        let keys = ProviderKeySet(uri: uri, transport: transport)
        keySet = keys
        return keys
    }

    private func validator(_ metadata: ProviderMetadata) -> IDTokenValidator {
        IDTokenValidator(
            issuer: metadata.issuer, clientID: configuration.clientID, allowedAlgorithms: configuration.allowedSigningAlgorithms,
            clockSkew: configuration.clockSkew, maximumAge: configuration.maximumIDTokenAge)
    }

    // MARK: State

    /// The current session, read from ``storage`` on first use; `nil` when logged out.
    /// - Throws: ``StorageError`` when the storage cannot be read.
    public var authState: AuthState? {
        get throws { try loadedState() }
    }

    /// Replaces the session (for example with one a CLI kept in its profile file), saving it
    /// to ``storage``; `nil` removes it.
    /// - Throws: ``OIDCError`` ``OIDCError/Code/invalidConfiguration`` when the state is for another
    ///   issuer or client, ``StorageError`` when it cannot be saved.
    public func setAuthState(_ newState: AuthState?) throws {
        if let newState {
            guard newState.issuer == configuration.issuer.absoluteString, newState.clientID == configuration.clientID else {
                throw OIDCError(
                    .invalidConfiguration,
                    "the session is for client \(newState.clientID) at \(newState.issuer), not this client's configuration")
            }
        }
        try save(newState)
    }

    private func loadedState() throws -> AuthState? {
        if stateLoaded { return state }
        if let data = try storage.read(key: storageKey) {
            // A state that no longer decodes (an older format) is treated as logged out, not as a failure.
            state = try? JSONDecoder().decode(AuthState.self, from: data)
        }
        stateLoaded = true
        return state
    }

    private func save(_ newState: AuthState?) throws {
        if let newState {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try storage.write(key: storageKey, data: try encoder.encode(newState))
        } else {
            try storage.delete(key: storageKey)
        }
        if newState?.dpopKey != state?.dpopKey { dpop = nil }
        state = newState
        stateLoaded = true
    }

    /// The DPoP key holder of the current session, when its tokens are DPoP-bound.
    public func dpopHolder() throws -> Dpop? {
        if let dpop { return dpop }
        guard let key = try loadedState()?.dpopKey else { return nil }
        let holder = try Dpop(privateJWK: key)
        dpop = holder
        return holder
    }

    // MARK: Login

    /// Logs the user in: the authorization-code flow with PKCE (S256), `state` and `nonce`,
    /// through `userAgent`; then the code exchange and ID-token validation. The new session
    /// replaces any previous one and is saved.
    ///
    /// - Parameter options: per-login parameters (`prompt`, `max_age`, `acr_values`, `login_hint`, extras).
    /// - Returns: the new session.
    /// - Throws: ``OIDCError``: from discovery, the user agent (``OIDCError/Code/cancelled``,
    ///   ``OIDCError/Code/timedOut``), the response checks (``OIDCError/Code/stateMismatch``,
    ///   ``OIDCError/Code/authorizationIssuerMismatch``, ``OIDCError/Code/missingAuthorizationIssuer``,
    ///   ``OIDCError/Code/authorizationError``), the token request (``OIDCError/Code/tokenRequestFailed``)
    ///   and ID-token validation (``OIDCError/Code/keySetUnavailable`` when the provider's keys cannot be
    ///   fetched); ``HTTPTransportError`` when the provider cannot be reached, ``DPoPError`` when the token
    ///   endpoint asks for a new DPoP nonce again after one retry. A failed login leaves the previous session as it was.
    @discardableResult
    public func login(using userAgent: any ExternalUserAgent, options: AuthorizationOptions = AuthorizationOptions()) async throws
        -> AuthState
    {
        let metadata = try await discover()
        // A new key per login: a session's tokens are bound to the key made for it, nothing else.
        var dpop: Dpop?
        if configuration.useDPoP { dpop = try Dpop() }
        let session = try await userAgent.startSession(redirectURI: configuration.redirectURI)
        let redirect: URL
        let request: AuthorizationRequest
        do {
            request = AuthorizationRequest(
                configuration: configuration, redirectURI: session.redirectURI, options: options, dpopThumbprint: dpop?.thumbprint)
            let url: URL
            if let parEndpoint = metadata.pushedAuthorizationRequestEndpoint,
                configuration.usePushedAuthorizationRequests || metadata.requirePushedAuthorizationRequests
            {
                url = try await request.pushedURL(
                    metadata: metadata, parEndpoint: parEndpoint, clientAuthentication: configuration.clientAuthentication,
                    transport: transport)
            } else if metadata.requirePushedAuthorizationRequests {
                throw OIDCError(.invalidMetadata, "the provider requires PAR but publishes no pushed_authorization_request_endpoint")
            } else {
                url = request.url(authorizationEndpoint: metadata.authorizationEndpoint)
            }
            HaapiLogger.info(OIDCFollowUpTag.flow, "login: opening the browser on \(metadata.authorizationEndpoint.absoluteString)")
            redirect = try await present(url, in: session, state: request.state)
        } catch {
            await session.close()
            throw error
        }
        await session.close()
        let response = try AuthorizationResponse(
            url: redirect, state: request.state, issuer: metadata.issuer,
            requireIssuer: metadata.authorizationResponseIssParameterSupported)
        let tokens = try await requestTokens(
            .authorizationCode(code: response.code, redirectURI: session.redirectURI.absoluteString, codeVerifier: request.pkce.verifier),
            metadata: metadata, dpop: dpop)
        guard let rawIDToken = tokens.idToken else {
            throw OIDCError(.invalidIDToken, "the token response has no id_token, though the openid scope was requested")
        }
        let idToken = try await validator(metadata).validate(
            rawIDToken, keys: try providerKeys(metadata), nonce: request.nonce, accessToken: tokens.accessToken,
            maxAge: request.maxAge)
        let newState = AuthState(
            issuer: metadata.issuer, clientID: configuration.clientID, accessToken: tokens.accessToken, tokenType: tokens.tokenType,
            accessTokenExpiresAt: tokens.expiresAt, refreshToken: tokens.refreshToken, idToken: rawIDToken,
            subject: idToken.subject, scope: tokens.scope,
            dpopKey: tokens.isDPoPBound ? dpop?.signingKey.privateJWK : nil)
        try save(newState)
        self.dpop = tokens.isDPoPBound ? dpop : nil
        HaapiLogger.info(OIDCFollowUpTag.flow, "login: signed in as \(sensitive: idToken.subject) (\(tokens.tokenType) token)")
        return newState
    }

    /// Sends a token request and returns the tokens, or throws the typed refusal.
    private func requestTokens(_ grant: TokenGrant, metadata: ProviderMetadata, dpop: Dpop?) async throws -> TokenSuccessResponse {
        let client = TokenEndpointClient(
            endpoint: metadata.tokenEndpoint, clientAuthentication: configuration.clientAuthentication, transport: transport,
            dpop: dpop)
        let result: TokenEndpointResponse
        do {
            result = try await client.requestToken(grant, additionalParameters: configuration.additionalTokenParameters).result
        } catch let error as TokenEndpointError {
            throw OIDCError(.tokenRequestFailed, "the token endpoint answered HTTP \(error.statusCode.map { String($0) } ?? "?"): \(error.errorDescription)", cause: error)
        }
        switch result {
        case .success(let tokens):
            return tokens
        case .failure(let refusal):
            throw OIDCError(
                .tokenRequestFailed, "the token endpoint refused the request: \(refusal.errorDescription)", serverError: refusal.error,
                cause: refusal)
        }
    }

    // MARK: Tokens

    /// An access token valid for at least `minimumLifetime` more seconds, refreshed first
    /// when the current one is (nearly) expired.
    /// - Throws: ``OIDCError`` ``OIDCError/Code/loginRequired`` when there is no session or it cannot be
    ///   refreshed any more; the errors of ``refresh()``.
    public func validAccessToken(minimumLifetime: TimeInterval = 30) async throws -> AccessToken {
        guard let current = try loadedState() else {
            throw OIDCError(.loginRequired, "no one is logged in")
        }
        if current.isAccessTokenValid(for: minimumLifetime) { return Self.accessToken(current) }
        return Self.accessToken(try await refresh())
    }

    /// Refreshes the tokens with the refresh token (RFC 6749 §6), keeping the rotated refresh
    /// token the provider returns.
    ///
    /// Single-flight: while a refresh is running, every other caller waits for it and gets its
    /// result, so a rotated refresh token is used exactly once. When the provider answers
    /// `invalid_grant` (the refresh token expired or was revoked), the session ends cleanly:
    /// the stale tokens are removed and ``OIDCError/Code/loginRequired`` is thrown.
    /// - Throws: ``OIDCError`` ``OIDCError/Code/loginRequired``, ``OIDCError/Code/tokenRequestFailed``,
    ///   ``OIDCError/Code/invalidIDToken``, ``OIDCError/Code/keySetUnavailable`` (the provider's keys
    ///   for the new ID token cannot be fetched); ``HTTPTransportError`` when no answer arrives and
    ///   ``DPoPError`` when the provider asks for a new DPoP nonce again after one retry. Only
    ///   ``OIDCError/Code/loginRequired`` removes the session; after any other failure it is the
    ///   one before the refresh, unchanged: retry as the error's recovery suggestion says.
    @discardableResult
    public func refresh() async throws -> AuthState {
        if let refreshTask { return try await refreshTask.value }
        let task = Task { try await self.performRefresh() }
        refreshTask = task
        defer { refreshTask = nil }
        return try await task.value
    }

    /// Refreshes unless the session's access token is no longer `stale`, because another
    /// caller refreshed meanwhile: what an API client does after a 401, so that many
    /// concurrent 401s cause one refresh.
    public func refresh(replacing stale: AccessToken) async throws -> AccessToken {
        if let refreshTask { return Self.accessToken(try await refreshTask.value) }
        if let current = try loadedState(), current.accessToken != stale.value { return Self.accessToken(current) }
        return Self.accessToken(try await refresh())
    }

    private func performRefresh() async throws -> AuthState {
        guard let current = try loadedState() else { throw OIDCError(.loginRequired, "no one is logged in") }
        guard let refreshToken = current.refreshToken else {
            throw OIDCError(.loginRequired, "the session has no refresh token; log in again")
        }
        let metadata = try await discover()
        let tokens: TokenSuccessResponse
        do {
            tokens = try await requestTokens(.refreshToken(refreshToken), metadata: metadata, dpop: try dpopHolder())
        } catch let error as OIDCError where error.code == .tokenRequestFailed && Self.endsSession(error) {
            HaapiLogger.info(OIDCFollowUpTag.flow, "refresh: the refresh token is no longer valid; removing the session")
            try save(nil)
            throw OIDCError(
                .loginRequired, "the session has ended (the refresh token was refused); log in again",
                serverError: error.serverError, cause: error)
        }
        var idToken: IDToken?
        if let raw = tokens.idToken {
            // OpenID Connect Core §12.2: a refreshed ID token is about the same user, from the same issuer, for the same client.
            let validated = try await validator(metadata).validate(
                raw, keys: try providerKeys(metadata), nonce: nil, accessToken: tokens.accessToken)
            guard current.subject == nil || validated.subject == current.subject else {
                throw OIDCError(.invalidIDToken, "the refreshed ID token is about another user than the session's")
            }
            idToken = validated
        }
        let next = current.updated(with: tokens, idToken: idToken)
        try save(next)
        HaapiLogger.debug(OIDCFollowUpTag.flow, "refresh: new access token \(sensitive: next.accessToken)")
        return next
    }

    /// Whether a refused refresh means the session is over: `invalid_grant` (RFC 6749 §5.2), or
    /// a bare HTTP 400 without an OAuth error body, which is how some providers (Glewlwyd)
    /// refuse a reused, expired or revoked refresh token. Other refusals (`invalid_client`,
    /// server errors) are configuration or transient problems and keep the session.
    private static func endsSession(_ error: OIDCError) -> Bool {
        if error.serverError == "invalid_grant" { return true }
        if let plain = error.cause as? TokenEndpointError, plain.statusCode == 400, plain.rawBody.isEmpty { return true }
        return false
    }

    private static func accessToken(_ state: AuthState) -> AccessToken {
        AccessToken(value: state.accessToken, tokenType: state.tokenType, expiresAt: state.accessTokenExpiresAt)
    }

    // MARK: UserInfo

    /// The user's claims from the UserInfo endpoint, sent with the access token (refreshed
    /// once on a 401). Its `sub` must be the ID token's (OpenID Connect Core §5.3.2).
    /// - Throws: ``OIDCError`` ``OIDCError/Code/userInfoSubjectMismatch``, ``OIDCError/Code/userInfoFailed``
    ///   (any answer but 200, its recovery the status's: a 503 keeps its `Retry-After`; or a body that is
    ///   not a JSON object), ``OIDCError/Code/notSupported``, ``OIDCError/Code/loginRequired``; the errors of
    ///   ``refresh()`` when a 401 makes it refresh; and, from the request itself, ``HTTPTransportError`` when
    ///   no answer arrives and ``DPoPError`` when the endpoint asks for a new DPoP nonce again after one retry.
    public func userInfo() async throws -> UserInfo {
        let metadata = try await discover()
        guard let endpoint = metadata.userInfoEndpoint else {
            throw OIDCError(.notSupported, "the provider publishes no userinfo_endpoint")
        }
        let response = try await AuthorizedHTTPClient(client: self, transport: transport)
            .send(TransportRequest(url: endpoint, headers: ["Accept": "application/json"]))
        guard response.status == 200 else {
            throw OIDCError(
                .userInfoFailed, "the UserInfo endpoint answered HTTP \(response.status)",
                cause: ProviderDocument.unusableAnswer(response, from: "the UserInfo endpoint"))
        }
        guard let claims = (try? JSONValue(parsing: response.body))?.objectValue else {
            throw OIDCError(.userInfoFailed, "the UserInfo response is not a JSON object (signed or encrypted UserInfo is not supported)")
        }
        guard let subject = claims["sub"]?.stringValue else {
            throw OIDCError(.userInfoSubjectMismatch, "the UserInfo response has no sub")
        }
        guard let expected = try loadedState()?.subject, subject == expected else {
            throw OIDCError(.userInfoSubjectMismatch, "the UserInfo response is about \"\(subject)\", not the logged-in user")
        }
        return UserInfo(subject: subject, claims: claims)
    }

    // MARK: Logout

    /// Revokes the refresh token and the access token (RFC 7009) and removes the session.
    ///
    /// The local session is removed even when the provider refuses, since the user asked to be
    /// logged out; the refusal is still thrown so the app can report it.
    /// - Throws: ``OIDCError`` ``OIDCError/Code/notSupported`` when the provider has no
    ///   revocation endpoint, ``OAuthErrorResponse`` / ``TokenEndpointError`` when it refuses.
    public func revoke() async throws {
        guard let current = try loadedState() else { return }
        try save(nil)
        let metadata = try await discover()
        guard let endpoint = metadata.revocationEndpoint else {
            throw OIDCError(.notSupported, "the provider publishes no revocation_endpoint; the session was removed locally only")
        }
        let revocation = TokenRevocationClient(
            endpoint: endpoint, clientAuthentication: configuration.clientAuthentication, transport: transport)
        // The refresh token first: revoking it usually revokes the access tokens issued with it (RFC 7009 §2.1).
        if let refreshToken = current.refreshToken {
            try await revocation.revoke(refreshToken, hint: .refreshToken)
        }
        try await revocation.revoke(current.accessToken, hint: .accessToken)
    }

    /// Removes the session locally, without telling the provider.
    public func forget() throws { try save(nil) }

    /// RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0): removes the session, then
    /// sends the browser to the provider's `end_session_endpoint` with `id_token_hint`,
    /// `post_logout_redirect_uri` and `state`, through the same kind of user agent as the login,
    /// so the provider's session cookie is removed too. Returns when the browser comes back
    /// to ``OIDCConfiguration/postLogoutRedirectURI`` with the same `state`.
    /// - Throws: ``OIDCError`` ``OIDCError/Code/notSupported`` (no end_session_endpoint),
    ///   ``OIDCError/Code/invalidConfiguration`` (no post-logout redirect URI), the user agent's
    ///   errors, ``OIDCError/Code/stateMismatch``.
    public func endSession(using userAgent: any ExternalUserAgent) async throws {
        let metadata = try await discover()
        guard let endpoint = metadata.endSessionEndpoint else {
            throw OIDCError(.notSupported, "the provider publishes no end_session_endpoint")
        }
        guard let postLogout = configuration.postLogoutRedirectURI else {
            throw OIDCError(.invalidConfiguration, "endSession needs a postLogoutRedirectURI to come back to")
        }
        let idToken = try loadedState()?.idToken
        // The tokens go first: whatever happens in the browser, this app is logged out.
        try save(nil)
        let session = try await userAgent.startSession(redirectURI: postLogout)
        let state = RandomValue.make()
        var parameters = [("client_id", configuration.clientID), ("post_logout_redirect_uri", session.redirectURI.absoluteString), ("state", state)]
        if let idToken { parameters.insert(("id_token_hint", idToken), at: 0) }
        let returned: URL
        do {
            returned = try await present(AuthorizationRequest.appending(parameters, to: endpoint), in: session, state: state)
        } catch {
            await session.close()
            throw error
        }
        await session.close()
        let query = URLComponents(url: returned, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
        guard FormURLEncoding.decode(query).first(where: { $0.0 == "state" })?.1 == state else {
            throw OIDCError(.stateMismatch, "the browser came back from logout without the state this logout sent")
        }
        HaapiLogger.info(OIDCFollowUpTag.flow, "logout: the provider ended the session")
    }

    // MARK: Deep-link resume

    /// Presents `url` in `session` and waits for the redirect; a ``DeepLinkUserAgent``'s session
    /// waits for the app to hand it over (``resumeExternalUserAgentFlow(with:)``).
    private func present(_ url: URL, in session: any ExternalUserAgentSession, state: String) async throws -> URL {
        guard let deepLink = session as? DeepLinkSession else {
            return try await session.present(url, timeout: configuration.userAgentTimeout)
        }
        let pending = PendingRedirect(redirectURI: deepLink.redirectURI, state: state, inbox: deepLink.inbox)
        pendingRedirect.withLock { $0.pending = pending }
        defer {
            pendingRedirect.withLock { record in
                if record.pending?.inbox === pending.inbox { record.pending = nil }
            }
        }
        return try await deepLink.present(url, timeout: configuration.userAgentTimeout)
    }

    /// Whether `url` is the redirect a login or logout under way waits for: its redirect URI
    /// (scheme, host, port and path) with that request's `state`. Call it with every URL the
    /// app is opened with (a private-use scheme, or a claimed `https` link).
    public nonisolated func isOAuthResponse(_ url: URL) -> Bool {
        guard let pending = pendingRedirect.withLock({ $0.pending }) else { return false }
        return pending.isRedirectURI(url) && PendingRedirect.state(of: url) == pending.state
    }

    /// Hands the redirect the app was opened with to the login or logout waiting for it, which
    /// then goes on (an `error=` response ends it with ``OIDCError/Code/authorizationError``).
    /// - Throws: ``OIDCError``, leaving the request under way (if any) and the session as they
    ///   were: ``OIDCError/Code/noPendingRequest`` when no request waits for `url`,
    ///   ``OIDCError/Code/redirectAlreadyDelivered`` when its request has had its redirect,
    ///   ``OIDCError/Code/stateMismatch`` when it is the redirect URI with another `state`.
    public nonisolated func resumeExternalUserAgentFlow(with url: URL) throws {
        let state = PendingRedirect.state(of: url)
        let pending = try pendingRedirect.withLock { record -> PendingRedirect in
            guard let pending = record.pending, pending.isRedirectURI(url) else {
                if let state, record.answered.contains(state) {
                    throw OIDCError(.redirectAlreadyDelivered, "the login or logout this URL answers has had its redirect")
                }
                throw OIDCError(.noPendingRequest, "no login or logout under way waits for \(url.redacted)")
            }
            guard state == pending.state else {
                throw OIDCError(.stateMismatch, "the URL is the redirect URI, but not with the state of the request under way")
            }
            record.pending = nil
            record.answered = Array((record.answered + [pending.state]).suffix(8))
            return pending
        }
        pending.inbox.deliver(.success(url))
    }

    /// Ends the login or logout waiting for its redirect (the user closed the browser, or
    /// left): it fails with ``OIDCError/Code/cancelled``, and the session stays as it was.
    /// - Returns: whether a request was waiting.
    @discardableResult public nonisolated func cancelExternalUserAgentFlow() -> Bool {
        guard let pending = pendingRedirect.withLock({ record -> PendingRedirect? in
            defer { record.pending = nil }
            return record.pending
        }) else { return false }
        pending.inbox.deliver(.failure(OIDCError(.cancelled, "the user cancelled the login in the browser")))
        return true
    }
}
