import Foundation
import OAuthCore

/// Signs a user in to an OpenID Provider through the system browser (RFC 8252, the AppAuth
/// way) and keeps the session in its ``/OAuthCore/TokenSession``: tokens saved in a ``/OAuthCore/Storage``,
/// refreshed once however many callers (and processes) need a new one, revoked and ended at logout.
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
    /// The provider, discovered at ``OIDCConfiguration/issuer`` on first use.
    public nonisolated let provider: OpenIDProvider
    /// The session the logins start and the token methods use.
    public nonisolated let session: TokenSession

    /// The transport every request goes through.
    public nonisolated var transport: any HTTPTransport { provider.transport }
    /// Where the ``/OAuthCore/AuthState`` is kept.
    public nonisolated var storage: any Storage { session.storage }
    /// The key of the ``/OAuthCore/AuthState`` in ``storage``.
    public nonisolated var storageKey: String { session.storageKey }

    /// The login or logout waiting for its redirect to come back through the app (a
    /// ``DeepLinkUserAgent``'s), and the `state`s of the last ones answered.
    private nonisolated let pendingRedirect = LockedValue<(pending: PendingRedirect?, answered: [String])>((nil, []))

    /// Makes a client. Nothing is sent until a method needs it.
    /// - Parameters:
    ///   - configuration: the provider's issuer and the client's settings.
    ///   - transport: the transport every request to the provider goes through.
    ///   - storage: where the session is saved; by default only in memory.
    ///   - storageKey: the key of the session in `storage`.
    ///   - lock: the lock processes sharing `storage` refresh under (see ``/OAuthCore/TokenSession``);
    ///     by default the storage's own, for a ``/OAuthCore/FileStorage``.
    public init(
        configuration: OIDCConfiguration, transport: any HTTPTransport, storage: any Storage = InMemoryStorage(),
        storageKey: String = "oidc-auth-state", lock: (any StorageLock)? = nil
    ) {
        self.configuration = configuration
        self.provider = OpenIDProvider(issuer: configuration.issuer, transport: transport)
        self.session = TokenSession(configuration: configuration, provider: provider, storage: storage, storageKey: storageKey, lock: lock)
    }

    // MARK: Discovery

    /// The provider's metadata, discovered on first use and then kept.
    /// - Throws: ``/OAuthCore/OIDCError`` `OIDCError.Code.discoveryFailed`, `OIDCError.Code.invalidMetadata`
    ///   or `OIDCError.Code.issuerMismatch`.
    @discardableResult
    public func discover() async throws -> ProviderMetadata { try await provider.metadata() }

    /// Uses metadata the app already has (from a previous ``discover()``, or configured by hand)
    /// instead of fetching it. Its issuer must be the configured one.
    /// - Throws: ``/OAuthCore/OIDCError`` `OIDCError.Code.issuerMismatch`.
    public func use(metadata: ProviderMetadata) async throws { try await provider.use(metadata) }

    // MARK: State

    /// The current session (``/OAuthCore/TokenSession/authState``); `nil` when logged out.
    public var authState: AuthState? {
        get async throws { try await session.authState }
    }

    /// Replaces the session (``/OAuthCore/TokenSession/setAuthState(_:)``); `nil` removes it.
    /// - Throws: ``/OAuthCore/OIDCError`` `OIDCError.Code.invalidConfiguration` when the state is for another
    ///   issuer or client, ``/OAuthCore/StorageError`` when it cannot be saved.
    public func setAuthState(_ newState: AuthState?) async throws {
        if let newState, newState.issuer != configuration.issuer.absoluteString {
            throw OIDCError(.invalidConfiguration, "the session is for \(newState.issuer), not this client's issuer")
        }
        try await session.setAuthState(newState)
    }

    /// The DPoP key holder of the current session (``/OAuthCore/TokenSession/dpopHolder()``).
    public func dpopHolder() async throws -> Dpop? { try await session.dpopHolder() }

    // MARK: Login

    /// Logs the user in: the authorization-code flow with PKCE (S256), `state` and `nonce`,
    /// through `userAgent`; then the code exchange and ID-token validation. The new session
    /// replaces any previous one and is saved.
    ///
    /// - Parameters:
    ///   - userAgent: what shows the provider's login page and brings the redirect back (the
    ///     system browser and a loopback listener, a deep link, the login sheet).
    ///   - options: per-login parameters (`prompt`, `max_age`, `acr_values`, `login_hint`, extras).
    /// - Returns: the new session.
    /// - Throws: ``/OAuthCore/OIDCError``: from discovery, the user agent (`OIDCError.Code.cancelled`,
    ///   `OIDCError.Code.timedOut`), the response checks (`OIDCError.Code.stateMismatch`,
    ///   `OIDCError.Code.authorizationIssuerMismatch`, `OIDCError.Code.missingAuthorizationIssuer`,
    ///   `OIDCError.Code.authorizationError`), the token request (`OIDCError.Code.tokenRequestFailed`)
    ///   and ID-token validation (`OIDCError.Code.keySetUnavailable` when the provider's keys cannot be
    ///   fetched); ``/OAuthCore/HTTPTransportError`` when the provider cannot be reached, ``/OAuthCore/DPoPError`` when the token
    ///   endpoint asks for a new DPoP nonce again after one retry. A failed login leaves the previous session as it was.
    @discardableResult
    public func login(using userAgent: any ExternalUserAgent, options: AuthorizationOptions = AuthorizationOptions()) async throws
        -> AuthState
    {
        let metadata = try await discover()
        // A new key per login: a session's tokens are bound to the key made for it, nothing else.
        var dpop: Dpop?
        if configuration.useDPoP { dpop = try Dpop() }
        let browser = try await userAgent.startSession(redirectURI: configuration.redirectURI)
        let redirect: URL
        let request: AuthorizationRequest
        do {
            request = AuthorizationRequest(
                configuration: configuration, redirectURI: browser.redirectURI, options: options, dpopThumbprint: dpop?.thumbprint)
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
            redirect = try await present(url, in: browser, state: request.state)
        } catch {
            await browser.close()
            throw error
        }
        await browser.close()
        let response = try AuthorizationResponse(
            url: redirect, state: request.state, issuer: metadata.issuer,
            requireIssuer: metadata.authorizationResponseIssParameterSupported)
        let tokens = try await session.requestTokens(
            .authorizationCode(code: response.code, redirectURI: browser.redirectURI.absoluteString, codeVerifier: request.pkce.verifier),
            metadata: metadata, dpop: dpop)
        let newState = try await session.start(
            with: tokens, dpop: dpop, nonce: request.nonce, maxAge: request.maxAge, maximumIDTokenAge: configuration.maximumIDTokenAge,
            requiresIDToken: true)
        HaapiLogger.info(OIDCFollowUpTag.flow, "login: signed in as \(sensitive: newState.subject ?? "?") (\(tokens.tokenType) token)")
        return newState
    }

    // MARK: Tokens (the session's)

    /// ``/OAuthCore/TokenSession/validAccessToken(minimumLifetime:)``.
    public func validAccessToken(minimumLifetime: TimeInterval = 30) async throws -> AccessToken {
        try await session.validAccessToken(minimumLifetime: minimumLifetime)
    }

    /// ``/OAuthCore/TokenSession/refresh()``.
    @discardableResult
    public func refresh() async throws -> AuthState { try await session.refresh() }

    /// ``/OAuthCore/TokenSession/refresh(replacing:)``.
    public func refresh(replacing stale: AccessToken) async throws -> AccessToken { try await session.refresh(replacing: stale) }

    /// ``/OAuthCore/TokenSession/userInfo()``.
    public func userInfo() async throws -> UserInfo { try await session.userInfo() }

    /// ``/OAuthCore/TokenSession/revoke(_:)`` of everything: the session is removed, then its tokens revoked.
    public func revoke() async throws { try await session.revoke(.all) }

    /// ``/OAuthCore/TokenSession/forget()``.
    public func forget() async throws { try await session.forget() }

    /// RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0): removes the session, then
    /// sends the browser to the provider's `end_session_endpoint` with `id_token_hint`,
    /// `post_logout_redirect_uri` and `state`, through the same kind of user agent as the login,
    /// so the provider's session cookie is removed too. Returns when the browser comes back
    /// to ``OIDCConfiguration/postLogoutRedirectURI`` with the same `state`.
    /// - Throws: ``/OAuthCore/OIDCError`` `OIDCError.Code.notSupported` (no end_session_endpoint),
    ///   `OIDCError.Code.invalidConfiguration` (no post-logout redirect URI), the user agent's
    ///   errors, `OIDCError.Code.stateMismatch`.
    public func endSession(using userAgent: any ExternalUserAgent) async throws {
        let metadata = try await discover()
        guard let endpoint = metadata.endSessionEndpoint else {
            throw OIDCError(.notSupported, "the provider publishes no end_session_endpoint")
        }
        guard let postLogout = configuration.postLogoutRedirectURI else {
            throw OIDCError(.invalidConfiguration, "endSession needs a postLogoutRedirectURI to come back to")
        }
        let idToken = try await session.authState?.idToken
        // The tokens go first: whatever happens in the browser, this app is logged out.
        try await session.forget()
        let browser = try await userAgent.startSession(redirectURI: postLogout)
        let state = RandomToken.make()
        var parameters = [
            ("client_id", configuration.clientID), ("post_logout_redirect_uri", browser.redirectURI.absoluteString), ("state", state),
        ]
        if let idToken { parameters.insert(("id_token_hint", idToken), at: 0) }
        let returned: URL
        do {
            returned = try await present(endpoint.appendingQuery(parameters), in: browser, state: state)
        } catch {
            await browser.close()
            throw error
        }
        await browser.close()
        guard returned.queryParameter("state") == state else {
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
    /// then goes on (an `error=` response ends it with `OIDCError.Code.authorizationError`).
    /// - Throws: ``/OAuthCore/OIDCError``, leaving the request under way (if any) and the session as they
    ///   were: `OIDCError.Code.noPendingRequest` when no request waits for `url`,
    ///   `OIDCError.Code.redirectAlreadyDelivered` when its request has had its redirect,
    ///   `OIDCError.Code.stateMismatch` when it is the redirect URI with another `state`.
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
    /// left): it fails with `OIDCError.Code.cancelled`, and the session stays as it was.
    /// - Returns: whether a request was waiting.
    @discardableResult public nonisolated func cancelExternalUserAgentFlow() -> Bool {
        guard
            let pending = pendingRedirect.withLock({ record -> PendingRedirect? in
                defer { record.pending = nil }
                return record.pending
            })
        else { return false }
        pending.inbox.deliver(.failure(OIDCError(.cancelled, "the user cancelled the login in the browser")))
        return true
    }
}
