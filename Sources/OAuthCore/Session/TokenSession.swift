import Foundation

/// A signed-in user's tokens, kept usable: stored, refreshed once however many callers and
/// processes need a new one, revoked, forgotten. One type for tokens from any login: an
/// `OIDCClient` browser login, a HAAPI flow's code exchange, or tokens an app already has.
///
/// ```swift
/// let session = TokenSession(
///     clientID: "mobile-app", provider: OpenIDProvider(issuer: issuer, transport: transport),
///     storage: try FileStorage(directory: directory))
/// let token = try await session.validAccessToken(minimumLifetime: 30)
/// ```
///
/// **Storage.** The tokens and the DPoP key they are bound to are one ``AuthState``, written
/// in one atomic write under ``storageKey``. The stored form is versioned and every earlier
/// form still reads (``AuthState/init(storedData:)``).
///
/// **One refresh.** Within a process the session is single-flight: callers that need a
/// refresh while one runs wait for it and take its result. Across processes that share the
/// storage (an app and its extensions, command-line processes), a refresh happens under
/// ``lock``; a caller that waited for it reads the tokens again and takes them when another
/// caller replaced the ones it had — even when they still fall short of a minimum lifetime no
/// token can meet — so one call never refreshes twice in a row, and a rotated refresh token is
/// presented once.
///
/// **Crash safety.** The rotated refresh token is written before anything else happens, so a
/// process stopped at any moment leaves the old tokens or the new ones. A storage that fails
/// to take the new tokens loses nothing: they stay in memory, are used, and are written at the
/// next call.
public actor TokenSession {
    /// Settings beyond where the tokens are kept.
    public struct Options: Sendable {
        /// How long to wait for another process's refresh before [`StorageError.Code.lockTimeout`](doc:ErrorCode/lockTimeout),
        /// in seconds (default 60).
        public var lockTimeout: TimeInterval
        /// Extra form parameters for every token request (`resource`, `audience`, ...).
        public var additionalTokenParameters: [(String, String)]
        /// The ID-token signature algorithms accepted (see `OIDCConfiguration.allowedSigningAlgorithms` in `OIDCClient`).
        public var allowedSigningAlgorithms: Set<JWSAlgorithm>
        /// How far the provider's clock and this device's may disagree.
        public var clockSkew: TimeInterval
        /// Sees every token-endpoint exchange of the session (for diagnostics, or to hand the raw
        /// answer on, as HaapiSDK's `OAuthTokenManager` does to its response listener); `nil`: none.
        public var tokenEndpointObserver: TokenEndpointObserver?

        /// Makes options.
        public init(
            lockTimeout: TimeInterval = 60, additionalTokenParameters: [(String, String)] = [],
            allowedSigningAlgorithms: Set<JWSAlgorithm> = [.rs256, .ps256, .es256, .es384, .es512, .edDSA], clockSkew: TimeInterval = 120
        ) {
            self.lockTimeout = lockTimeout
            self.additionalTokenParameters = additionalTokenParameters
            self.allowedSigningAlgorithms = allowedSigningAlgorithms
            self.clockSkew = clockSkew
        }
    }

    /// What ``revoke(_:)`` revokes.
    public enum Revocation: String, Sendable, CaseIterable {
        /// The refresh token, then the access token; the session is removed first, whatever the
        /// provider answers (a logout).
        case all
        /// The refresh token only; the access token is kept until it expires.
        case refreshToken
        /// The access token only; the next ``validAccessToken(minimumLifetime:)`` refreshes.
        case accessToken
    }

    /// The client the tokens were issued to.
    public nonisolated let clientID: String
    /// The provider that issued them, reached through its transport.
    public nonisolated let provider: OpenIDProvider
    /// Where the session is kept.
    public nonisolated let storage: any Storage
    /// The key of the session in ``storage``.
    public nonisolated let storageKey: String
    /// The lock processes sharing ``storage`` refresh under; `nil` when the storage is not
    /// shared with another process.
    public nonisolated let lock: (any StorageLock)?
    /// The settings.
    public nonisolated let options: Options

    /// The client's credentials at the token and revocation endpoints, asked for at each request.
    let clientAuthentication: @Sendable () async throws -> ClientAuthentication
    /// What this process knows of the stored session.
    /// What this process knows of the stored session, and the decisions made from it: changed
    /// only through its transitions (TokenSession+Storage.swift does the storage's part).
    var state = TokenSessionState()
    /// The refresh under way in this process, which every caller that needs one joins.
    private var refreshTask: SharedWork<AuthState>?
    /// The refreshes of refresh tokens callers present (``refresh(presenting:dpop:additionalParameters:)``), by token.
    private var presentedRefreshes: [String: SharedWork<TokenSuccessResponse>] = [:]
    /// The DPoP key holder of the stored key, made once per key.
    var holder: (key: JWK, dpop: Dpop)?
    /// The turns of this process's changes (``lock`` serialises processes, this the tasks of one).
    let changes = TurnQueue()

    /// A session for the tokens of `clientID`.
    ///
    /// - Parameters:
    ///   - clientID: the client the tokens were issued to (`client_id` of refresh and revocation).
    ///   - provider: the provider that issued the tokens: its endpoints and ID-token signing keys.
    ///   - storage: where the session is kept: ``FileStorage`` (files `0600`), `KeychainStorage`
    ///     with an access group shared by an app and its extensions, or the app's own.
    ///   - storageKey: the key of the session in `storage`.
    ///   - lock: the lock for processes sharing `storage`; by default the storage's own when it
    ///     is a ``LockingStorage`` (a ``FileStorage``), else none. An app sharing a Keychain
    ///     group with an extension passes a ``FileLock`` in their app group's container.
    ///   - options: the lock timeout, extra token parameters, accepted ID-token algorithms and
    ///     clock skew (see ``Options``).
    ///   - clientAuthentication: the client's credentials at the token and revocation endpoints,
    ///     asked for at each request (a dynamically registered client's may change).
    public init(
        clientID: String, provider: OpenIDProvider, storage: any Storage, storageKey: String = "oidc-auth-state",
        lock: (any StorageLock)? = nil, options: Options = Options(),
        clientAuthentication: (@Sendable () async throws -> ClientAuthentication)? = nil
    ) {
        self.clientID = clientID
        self.provider = provider
        self.storage = storage
        self.storageKey = storageKey
        self.lock = lock ?? (try? (storage as? any LockingStorage)?.lock(for: storageKey))
        self.options = options
        self.clientAuthentication = clientAuthentication ?? { .none(clientID: clientID) }
    }

    // MARK: State

    /// The session as stored now (another process may have changed it); `nil` when logged out.
    /// - Throws: ``StorageError`` when the storage cannot be read, [`StorageError.Code.invalidFormat`](doc:ErrorCode/invalidFormat)
    ///   when what it holds is not a session (it is left as it is).
    public var authState: AuthState? {
        get async throws { try await current() }
    }

    /// Replaces the session (`nil` removes it), under the lock, so that a refresh running in
    /// another process cannot write over it.
    /// - Throws: ``OIDCError`` [`OIDCError.Code.invalidConfiguration`](doc:ErrorCode/invalidConfiguration) when the state is for
    ///   another client, ``StorageError``.
    public func setAuthState(_ newState: AuthState?) async throws {
        if let newState, newState.clientID != clientID {
            throw OIDCError(.invalidConfiguration, "the session is for client \(newState.clientID), not \(clientID)")
        }
        try await whileChanging {
            // Tokens the storage refused earlier are replaced too, whether or not this write succeeds.
            state.replacing()
            if let newState { try write(newState) } else { try delete() }
        }
    }

    /// Starts the session with the tokens of a code exchange this app made itself (a HAAPI
    /// flow's `SuccessfulTokenResponse`), bound to `dpop` when they are DPoP-bound.
    ///
    /// The ID token, if any, is validated when the provider's keys are known (signature,
    /// issuer, audience, times, `nonce` when given); without them it is taken as the token
    /// endpoint sent it over TLS (OpenID Connect Core §3.1.3.7, 6). Its `sub` becomes the
    /// session's user, whom every refreshed ID token and UserInfo response must name.
    ///
    /// An OpenID Connect login (`requiresIDToken`) must come with an ID token, which is always
    /// validated, also against the `max_age` it asked for and with its `maximumIDTokenAge`.
    /// - Throws: ``OIDCError`` [`OIDCError.Code.invalidIDToken`](doc:ErrorCode/invalidIDToken) (and the other validation
    ///   codes), [`OIDCError.Code.invalidConfiguration`](doc:ErrorCode/invalidConfiguration) when bound tokens come without an
    ///   exportable key; ``StorageError``. Nothing is stored when it throws.
    @discardableResult
    public func start(
        with tokens: TokenSuccessResponse, dpop: Dpop?, nonce: String? = nil, maxAge: Int? = nil, maximumIDTokenAge: TimeInterval = 600,
        requiresIDToken: Bool = false
    ) async throws -> AuthState {
        let metadata = try await provider.metadata()
        var subject: String?
        if let raw = tokens.idToken {
            if requiresIDToken || metadata.jwksURI != nil {
                // A login's ID token is checked, or the login fails: one whose keys cannot be
                // fetched now is not taken unverified.
                subject = try await validate(
                    raw, metadata: metadata, nonce: nonce, accessToken: tokens.accessToken, maxAge: maxAge, maximumAge: maximumIDTokenAge
                ).subject
            } else {
                // A session without the provider's keys (no issuer configured) keeps the ID token
                // for the app, but trusts none of its claims. Debug, not info: that is the usual
                // state of a HAAPI client's session, whose caller verifies the ID token itself
                // when it has the keys (the command line does, after the login).
                HaapiLogger.debug(
                    OIDCFollowUpTag.session,
                    "the ID token is kept unverified (no provider keys are configured here): its claims are not used")
            }
        } else if requiresIDToken {
            throw OIDCError(.invalidIDToken, "the token response has no id_token, though the openid scope was requested")
        }
        let state = AuthState(
            issuer: metadata.issuer, clientID: clientID, accessToken: tokens.accessToken, tokenType: tokens.tokenType,
            accessTokenExpiresAt: tokens.expiresAt, refreshToken: tokens.refreshToken, idToken: tokens.idToken,
            subject: subject, scope: tokens.scope, dpopKey: try Self.exportedKey(of: dpop, for: tokens))
        try await setAuthState(state)
        return state
    }

    /// Removes the session here, without telling the provider.
    public func forget() async throws { try await setAuthState(nil) }

    /// The DPoP key holder of the session's tokens, when they are DPoP-bound.
    /// - Throws: ``DPoPError`` or ``JOSEError`` when the stored key is unusable.
    public func dpopHolder() async throws -> Dpop? {
        try dpop(for: try await current())
    }

    // MARK: Tokens

    /// What a call that needs a session throws when none is stored: [`OIDCError.Code.loginRequired`](doc:ErrorCode/loginRequired),
    /// saying no one is logged in, with a ``NoSessionError`` as its cause; a session that ended
    /// otherwise (a refused refresh) has another cause, which says why.
    public static var noSession: OIDCError { OIDCError(.loginRequired, "no one is logged in", cause: NoSessionError()) }

    /// The cause of ``noSession``: the storage holds no tokens under the session's key, so no
    /// one has logged in, or the last user logged out. It tells "never logged in" from "logged
    /// out by the server", which share [`OIDCError.Code.loginRequired`](doc:ErrorCode/loginRequired).
    public struct NoSessionError: IdsvrError, Hashable {
        /// Makes the error.
        public init() {}
        /// Always `no_session`.
        public var error: String { "no_session" }
        /// Always "no tokens are stored".
        public var errorDescription: String? { "no tokens are stored" }
        /// The same every time: no one logged in, or the last user logged out.
        public var failureReason: String { "No one has logged in, or the last user logged out." }
        /// A new login.
        public var recoverySuggestion: IdsvrErrorHandling { .newHaapiFlow }
    }

    /// An access token valid for at least `minimumLifetime` more seconds, refreshed first when
    /// the stored one has less.
    ///
    /// When no token can meet `minimumLifetime` (it is longer than the provider's token
    /// lifetime), the call returns the token of the one refresh it caused or waited for.
    /// A `minimumLifetime` past ``OutsideNumber/longestSeconds`` is that long (always a refresh).
    /// - Throws: ``OutsideNumberError`` when `minimumLifetime` is NaN or infinite;
    ///   ``OIDCError`` [`OIDCError.Code.loginRequired`](doc:ErrorCode/loginRequired) when there is no session or it
    ///   cannot be refreshed any more; the errors of ``refresh()``.
    public func validAccessToken(minimumLifetime: TimeInterval = 30) async throws -> AccessToken {
        let minimumLifetime = try OutsideNumber.seconds(minimumLifetime, of: "minimumLifetime")
        guard let current = try await current() else { throw Self.noSession }
        if current.isAccessTokenValid(for: minimumLifetime) { return AccessToken(current) }
        return AccessToken(
            try await refreshed(from: current, reason: "has less than \(OutsideNumber.wholeSeconds(minimumLifetime)) s left"))
    }

    /// Refreshes the tokens now (RFC 6749 §6), keeping the rotated refresh token the provider
    /// returns; when another caller or process refreshed while this one waited, its tokens
    /// are the result.
    ///
    /// `invalid_grant` (or a bare HTTP 400, as some providers answer a spent refresh token)
    /// ends the session: it is removed once, and this caller and every waiter get
    /// [`OIDCError.Code.loginRequired`](doc:ErrorCode/loginRequired). A failure before the provider answered leaves the
    /// session as it was. A new ID token is validated after the new tokens are stored: one
    /// that cannot be checked now (the provider's keys unreachable) or that fails its checks is
    /// not kept, the previous one stays; one that names another user ends the session.
    /// - Throws: ``OIDCError`` [`OIDCError.Code.loginRequired`](doc:ErrorCode/loginRequired), [`OIDCError.Code.tokenRequestFailed`](doc:ErrorCode/tokenRequestFailed),
    ///   [`OIDCError.Code.invalidIDToken`](doc:ErrorCode/invalidIDToken) and the other validation codes (the new tokens are kept
    ///   with the previous ID token; when it names another user the session is removed); ``StorageError`` ([`StorageError.Code.lockTimeout`](doc:ErrorCode/lockTimeout) naming the
    ///   process that holds the lock); ``HTTPTransportError``; ``DPoPError``.
    @discardableResult
    public func refresh() async throws -> AuthState {
        guard let current = try await current() else { throw Self.noSession }
        return try await refreshed(from: current, reason: "is to be renewed")
    }

    /// Refreshes unless the session's access token is no longer `stale`, because another
    /// caller refreshed meanwhile: what an API client does after a 401, so that many
    /// concurrent 401s cause one refresh.
    public func refresh(replacing stale: AccessToken) async throws -> AccessToken {
        if let refreshTask { return AccessToken(try await refreshTask.value) }
        guard let current = try await current() else { throw Self.noSession }
        if current.accessToken != stale.value { return AccessToken(current) }
        return AccessToken(try await refreshed(from: current, reason: "was refused by the API"))
    }

    /// The one refresh for every caller of this process that needs it now.
    private func refreshed(from seen: AuthState, reason: String) async throws -> AuthState {
        if let refreshTask { return try await refreshTask.value }
        let work = SharedWork { try await self.refreshUnderLock(from: seen, reason: reason) }
        refreshTask = work
        defer { refreshTask = nil }
        return try await work.value
    }

    private func refreshUnderLock(from seen: AuthState, reason: String) async throws -> AuthState {
        try await whileChanging {
            let stored = try storedWhileChanging()
            switch TokenSessionState.refresh(from: seen, stored: stored) {
            case .ended:
                throw OIDCError(.loginRequired, "the session ended while this caller waited (logged out, or its refresh token was refused)")
            case .take(let replaced):
                HaapiLogger.debug(OIDCFollowUpTag.session, "refresh: another caller replaced the tokens meanwhile; taking them")
                return replaced
            case .noRefreshToken:
                throw OIDCError(.loginRequired, "the access token \(reason) and the session has no refresh token; log in again")
            case .renew(let stored, let refreshToken):
                return try await renew(stored, with: refreshToken).state
            }
        }
    }

    /// Refreshes with a refresh token the caller holds, which may or may not be the session's
    /// (HaapiSDK's `OAuthTokenManager.refreshAccessToken(with:)` is built on it): callers
    /// presenting the same token at the same time share one request, so a rotated refresh
    /// token is presented once.
    ///
    /// When it is the session's refresh token, the session is renewed as by ``refresh()``
    /// (with `dpop`, or the session's key). Any other token is refreshed with `dpop` alone and
    /// the session is left as it is.
    /// - Returns: the token endpoint's answer.
    /// - Throws: the errors of ``refresh()``; for a token that is not the session's, ``OIDCError``
    ///   [`OIDCError.Code.tokenRequestFailed`](doc:ErrorCode/tokenRequestFailed) with the refusal as its cause.
    /// - Parameters:
    ///   - refreshToken: the refresh token to present.
    ///   - dpop: the key that proves the request, for DPoP-bound tokens; `nil`: the session's
    ///     own key when it is the session's token, else none.
    ///   - additionalParameters: more parameters of the token request (callers that join a
    ///     refresh under way share its parameters).
    ///
    /// A caller who comes late, presenting the token the last such refresh rotated, gets that
    /// refresh's answer while its access token is unexpired: the spent token is not sent
    /// again, which a server may take for a stolen token and end the grant (RFC 9700 §4.14.2).
    public func refresh(
        presenting refreshToken: String, dpop: Dpop?, additionalParameters: [(String, String)] = []
    ) async throws -> TokenSuccessResponse {
        if let running = presentedRefreshes[refreshToken] { return try await running.value }
        if let answer = state.answerForLatePresenter(of: refreshToken, now: Date()) { return answer }
        let work = SharedWork {
            try await self.refreshUnderLock(presenting: refreshToken, dpop: dpop, additionalParameters: additionalParameters)
        }
        presentedRefreshes[refreshToken] = work
        defer { presentedRefreshes[refreshToken] = nil }
        let tokens = try await work.value
        state.refreshed(presenting: refreshToken, answer: tokens)
        return tokens
    }

    private func refreshUnderLock(
        presenting refreshToken: String, dpop: Dpop?, additionalParameters: [(String, String)]
    ) async throws -> TokenSuccessResponse {
        try await whileChanging {
            if let stored = try storedWhileChanging(), stored.refreshToken == refreshToken {
                return try await renew(stored, with: refreshToken, dpop: dpop, additionalParameters: additionalParameters).tokens
            }
            return try await requestTokens(
                .refreshToken(refreshToken), metadata: try await provider.metadata(), dpop: dpop, additionalParameters: additionalParameters
            )
        }
    }

    /// Sends the refresh (with `dpop`, else the session's key) and keeps its result; called while changing.
    private func renew(
        _ stored: AuthState, with refreshToken: String, dpop: Dpop? = nil, additionalParameters: [(String, String)] = []
    ) async throws -> (state: AuthState, tokens: TokenSuccessResponse) {
        let metadata = try await provider.metadata()
        HaapiLogger.debug(OIDCFollowUpTag.session, "refresh: sending the refresh token to \(metadata.tokenEndpoint.absoluteString)")
        let tokens: TokenSuccessResponse
        do {
            tokens = try await requestTokens(
                .refreshToken(refreshToken), metadata: metadata, dpop: try dpop ?? self.dpop(for: stored),
                additionalParameters: additionalParameters)
        } catch let error as OIDCError where error.code == .tokenRequestFailed && Self.endsSession(error) {
            HaapiLogger.info(OIDCFollowUpTag.session, "refresh: the refresh token was refused; removing the session")
            try delete()
            throw OIDCError(
                .loginRequired, "the session has ended (the refresh token was refused); log in again", serverError: error.serverError,
                cause: error)
        }
        // The rotated refresh token is kept before anything else can fail or take time.
        var next = stored.updated(with: tokens, idToken: nil)
        keep(next, replacing: stored)
        if let raw = tokens.idToken, metadata.jwksURI == nil {
            // Without the provider's keys the ID token is kept as the token endpoint sent it, and
            // none of its claims is trusted (as ``start(with:dpop:nonce:)`` does).
            next.idToken = raw
            keep(next, replacing: stored)
        } else if let raw = tokens.idToken {
            // OpenID Connect Core §12.2: the same user, from the same issuer, for the same client.
            // The tokens came from the token endpoint over TLS and are kept whatever their ID token
            // is, unless it names another user; an ID token that fails is never kept.
            let validated: IDToken?
            do {
                validated = try await validate(raw, metadata: metadata, nonce: nil, accessToken: tokens.accessToken)
            } catch let error as OIDCError where Self.isAboutTheIDToken(error) {
                HaapiLogger.warning(
                    OIDCFollowUpTag.session,
                    "refresh: the new ID token is not valid (\(error.errorDescription ?? error.error)); keeping the previous one")
                throw OIDCError(
                    error.code, "\(error.message) (the refreshed access and refresh tokens are kept, with the previous ID token)",
                    serverError: error.serverError, cause: error.cause)
            } catch {
                HaapiLogger.warning(
                    OIDCFollowUpTag.session, "refresh: the new ID token cannot be verified now (\(error)); keeping the previous one")
                validated = nil
            }
            if let validated {
                switch TokenSessionState.refreshedIDToken(about: validated.subject, stored: stored) {
                case .anotherUser:
                    HaapiLogger.error(OIDCFollowUpTag.session, "refresh: the new ID token names another user; removing the session")
                    try? delete()
                    throw OIDCError(.invalidIDToken, "the refreshed ID token is about another user than the session's; log in again")
                case .adopt(let subject):
                    next.idToken = raw
                    next.subject = subject
                    keep(next, replacing: stored)
                }
            }
        }
        HaapiLogger.debug(OIDCFollowUpTag.session, "refresh: new access token \(sensitive: next.accessToken)")
        return (next, tokens)
    }
}

/// Sees one token-endpoint exchange of a ``TokenSession``: the answer and the HTTP response it
/// came in, or the failure.
public typealias TokenEndpointObserver = @Sendable (Result<(result: TokenEndpointResponse, response: TransportResponse), any Error>) -> Void

extension AccessToken {
    /// The access token of a session.
    package init(_ state: AuthState) {
        self.init(value: state.accessToken, tokenType: state.tokenType, expiresAt: state.accessTokenExpiresAt)
    }
}
