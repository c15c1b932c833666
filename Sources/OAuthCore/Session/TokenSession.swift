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

    private let clientAuthentication: @Sendable () async throws -> ClientAuthentication
    /// What this process knows of the stored session.
    private var known = Known.nothing
    private var refreshTask: SharedWork<AuthState>?
    /// The refreshes of refresh tokens callers present (``refresh(presenting:dpop:)``), by token.
    private var presentedRefreshes: [String: SharedWork<TokenSuccessResponse>] = [:]
    /// The last refresh that rotated a presented refresh token: the token it spent, and what it gave.
    private var lastRotation: (spent: String, tokens: TokenSuccessResponse)?
    private var holder: (key: JWK, dpop: Dpop)?
    /// The turns of this process's changes (``lock`` serialises processes, this the tasks of one).
    private let changes = TurnQueue()

    /// What this process knows of the stored session. The storage functions below (``readStored()``,
    /// ``write(_:)``, ``keep(_:replacing:)``, ``delete()``, ``storedWhileChanging()``) are its transitions.
    private enum Known {
        /// Nothing read yet, or nothing stored.
        case nothing
        /// The value last read or written, so that an unchanged value is not decoded again.
        case stored(data: Data, state: AuthState)
        /// Tokens the storage refused after a refresh, in use until it takes them at a later call,
        /// and the stored state they replace (the refresh token in it may be spent already).
        case unsaved(AuthState, replacing: AuthState?)
    }

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
            known = .nothing
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
                HaapiLogger.debug(OIDCFollowUpTag.session, "the ID token is kept unverified (no provider keys are configured here): its claims are not used")
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
        return AccessToken(try await refreshed(from: current, reason: "has less than \(OutsideNumber.wholeSeconds(minimumLifetime)) s left"))
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
            guard let stored = try storedWhileChanging() else {
                throw OIDCError(.loginRequired, "the session ended while this caller waited (logged out, or its refresh token was refused)")
            }
            if stored.accessToken != seen.accessToken || stored.refreshToken != seen.refreshToken {
                HaapiLogger.debug(OIDCFollowUpTag.session, "refresh: another caller replaced the tokens meanwhile; taking them")
                return stored
            }
            guard let refreshToken = stored.refreshToken else {
                throw OIDCError(.loginRequired, "the access token \(reason) and the session has no refresh token; log in again")
            }
            return try await renew(stored, with: refreshToken).state
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
        if let last = lastRotation, last.spent == refreshToken, (last.tokens.expiresAt ?? .distantFuture) > Date() { return last.tokens }
        let work = SharedWork { try await self.refreshUnderLock(presenting: refreshToken, dpop: dpop, additionalParameters: additionalParameters) }
        presentedRefreshes[refreshToken] = work
        defer { presentedRefreshes[refreshToken] = nil }
        let tokens = try await work.value
        if let next = tokens.refreshToken, next != refreshToken { lastRotation = (refreshToken, tokens) }
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
                .refreshToken(refreshToken), metadata: try await provider.metadata(), dpop: dpop, additionalParameters: additionalParameters)
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
                .refreshToken(refreshToken), metadata: metadata, dpop: try dpop ?? self.dpop(for: stored), additionalParameters: additionalParameters)
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
                HaapiLogger.warning(OIDCFollowUpTag.session, "refresh: the new ID token is not valid (\(error.errorDescription ?? error.error)); keeping the previous one")
                throw OIDCError(
                    error.code, "\(error.message) (the refreshed access and refresh tokens are kept, with the previous ID token)",
                    serverError: error.serverError, cause: error.cause)
            } catch {
                HaapiLogger.warning(OIDCFollowUpTag.session, "refresh: the new ID token cannot be verified now (\(error)); keeping the previous one")
                validated = nil
            }
            if let validated {
                guard stored.subject == nil || validated.subject == stored.subject else {
                    HaapiLogger.error(OIDCFollowUpTag.session, "refresh: the new ID token names another user; removing the session")
                    try? delete()
                    throw OIDCError(.invalidIDToken, "the refreshed ID token is about another user than the session's; log in again")
                }
                next.idToken = raw
                next.subject = stored.subject ?? validated.subject
                keep(next, replacing: stored)
            }
        }
        HaapiLogger.debug(OIDCFollowUpTag.session, "refresh: new access token \(sensitive: next.accessToken)")
        return (next, tokens)
    }

    // MARK: UserInfo

    /// The user's claims from the UserInfo endpoint, sent with the access token (refreshed
    /// once on a 401). Its `sub` must be the session's user (OpenID Connect Core §5.3.2).
    /// - Throws: ``OIDCError`` [`OIDCError.Code.userInfoSubjectMismatch`](doc:ErrorCode/userInfoSubjectMismatch), [`OIDCError.Code.userInfoFailed`](doc:ErrorCode/userInfoFailed)
    ///   (any answer but 200, with the status's recovery; or a body that is not a JSON object),
    ///   [`OIDCError.Code.notSupported`](doc:ErrorCode/notSupported), [`OIDCError.Code.loginRequired`](doc:ErrorCode/loginRequired); the errors of ``refresh()``;
    ///   ``HTTPTransportError`` and ``DPoPError`` from the request.
    public func userInfo() async throws -> UserInfo {
        guard let endpoint = try await provider.metadata().userInfoEndpoint else {
            throw OIDCError(.notSupported, "the provider publishes no userinfo_endpoint")
        }
        let response = try await AuthorizedHTTPClient(session: self)
            .send(TransportRequest(url: endpoint, headers: ["Accept": "application/json"]))
        guard response.status == 200 else {
            throw OIDCError(
                .userInfoFailed, "the UserInfo endpoint answered HTTP \(response.status)",
                cause: UnexpectedResponseError(response, from: "the UserInfo endpoint", expected: "claims"))
        }
        guard let claims = (try? JSONValue(parsing: response.body))?.objectValue else {
            throw OIDCError(.userInfoFailed, "the UserInfo response is not a JSON object (signed or encrypted UserInfo is not supported)")
        }
        guard let subject = claims["sub"]?.stringValue else {
            throw OIDCError(.userInfoSubjectMismatch, "the UserInfo response has no sub")
        }
        guard let expected = try await current()?.subject, subject == expected else {
            throw OIDCError(.userInfoSubjectMismatch, "the UserInfo response is about \"\(subject)\", not the logged-in user")
        }
        return UserInfo(subject: subject, claims: claims)
    }

    // MARK: Revocation

    /// Revokes tokens at the provider (RFC 7009) and forgets what was revoked.
    ///
    /// ``Revocation/all`` removes the session first, so the user is logged out here even when
    /// the provider cannot be reached or refuses; the failure is still thrown. The narrower
    /// revocations change the session only after the provider accepted.
    /// - Returns: what was revoked, in order.
    /// - Throws: ``OIDCError`` [`OIDCError.Code.notSupported`](doc:ErrorCode/notSupported) (no revocation endpoint),
    ///   [`OIDCError.Code.loginRequired`](doc:ErrorCode/loginRequired) (nothing to revoke, for the narrower revocations);
    ///   ``OAuthErrorResponse``, ``UnexpectedResponseError`` or ``TokenEndpointError`` when the provider refuses; ``HTTPTransportError``.
    @discardableResult
    public func revoke(_ which: Revocation = .all) async throws -> [TokenRevocationClient.TokenTypeHint] {
        lastRotation = nil
        if which == .all {
            let removed = try await whileChanging { () throws -> AuthState? in
                let stored = try storedWhileChanging()
                try delete()
                return stored
            }
            guard let removed else { return [] }
            let client = try await revocationClient()
            var revoked: [TokenRevocationClient.TokenTypeHint] = []
            // The refresh token first: revoking it usually revokes the access tokens issued with it (RFC 7009 §2.1).
            if let refreshToken = removed.refreshToken {
                try await client.revoke(refreshToken, hint: .refreshToken)
                revoked.append(.refreshToken)
            }
            try await client.revoke(removed.accessToken, hint: .accessToken)
            return revoked + [.accessToken]
        }
        return try await whileChanging {
            guard let stored = try storedWhileChanging() else { throw Self.noSession }
            let client = try await revocationClient()
            let hint: TokenRevocationClient.TokenTypeHint = which == .refreshToken ? .refreshToken : .accessToken
            guard let token = hint == .refreshToken ? stored.refreshToken : stored.accessToken else { return [] }
            try await client.revoke(token, hint: hint)
            try forget(token, from: stored)
            return [hint]
        }
    }

    /// Revokes a token the caller holds (RFC 7009), which may or may not be the session's
    /// (HaapiSDK's `OAuthTokenManager` revokes with it), and forgets it when it is the
    /// session's: its refresh token ends the session, with the key (the provider should revoke
    /// the access tokens of its grant too, RFC 7009 §2.1); its access token counts as expired.
    /// The answer kept for late presenters of a rotated refresh token is forgotten too.
    /// - Throws: the errors of ``revoke(_:)``.
    public func revoke(presenting token: String, hint: TokenRevocationClient.TokenTypeHint) async throws {
        lastRotation = nil
        try await revocationClient().revoke(token, hint: hint)
        try await whileChanging {
            guard let stored = try storedWhileChanging() else { return }
            if stored.refreshToken == token { try delete() } else { try forget(token, from: stored) }
        }
    }

    /// Forgets a revoked token of the session: a refresh token is dropped, an access token
    /// counts as expired; a session left with neither usable is removed. Called while changing.
    private func forget(_ revoked: String, from stored: AuthState) throws {
        var next = stored
        if next.refreshToken == revoked { next.refreshToken = nil }
        if next.accessToken == revoked { next.accessTokenExpiresAt = Date() }
        guard next != stored else { return }
        if next.usability() == .loginNeeded { try delete() } else { try write(next) }
    }

    private func revocationClient() async throws -> TokenRevocationClient {
        let metadata = try await provider.metadata()
        guard let endpoint = metadata.revocationEndpoint else {
            throw OIDCError(.notSupported, "the provider publishes no revocation_endpoint")
        }
        return TokenRevocationClient(
            endpoint: endpoint, clientAuthentication: try await clientAuthentication(), transport: provider.transport,
            tokenEndpoint: metadata.tokenEndpoint, issuer: assertionIssuer(metadata))
    }

    // MARK: Token requests (shared with OIDCClient's code exchange)

    /// The issuer a client assertion names: only one that discovery confirmed (a provider made
    /// from endpoints alone has a stand-in, and its assertions name the token endpoint).
    private func assertionIssuer(_ metadata: ProviderMetadata) -> String? {
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
            let exchange = try await client.requestToken(grant, additionalParameters: options.additionalTokenParameters + additionalParameters)
            options.tokenEndpointObserver?(.success(exchange))
            result = exchange.result
        } catch {
            options.tokenEndpointObserver?(.failure(error))
            switch error {
            case let error as UnexpectedResponseError:
                throw OIDCError(.tokenRequestFailed, "the token endpoint answered HTTP \(error.statusCode) with no tokens and no OAuth error", cause: error)
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
                .tokenRequestFailed, "the token endpoint refused the request: \(refusal.errorDescription ?? refusal.error)", serverError: refusal.error,
                cause: refusal)
        }
    }

    /// Validates an ID token from this session's provider for this client.
    private func validate(
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
    private static func endsSession(_ error: OIDCError) -> Bool {
        if error.serverError == "invalid_grant" { return true }
        if let plain = error.firstCause(UnexpectedResponseError.self), plain.statusCode == 400, plain.body.isEmpty { return true }
        return false
    }

    /// Whether an ID token failed its checks (signature, claims, hashes), as opposed to not
    /// being checkable now (no keys published or reachable, discovery failing, cancellation).
    private static func isAboutTheIDToken(_ error: OIDCError) -> Bool {
        [.invalidIDToken, .nonceMismatch, .atHashMismatch].contains(error.code)
    }

    private static func exportedKey(of dpop: Dpop?, for tokens: TokenSuccessResponse) throws -> JWK? {
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

    // MARK: Storage

    /// The session as stored, first writing tokens the storage refused earlier.
    private func current() async throws -> AuthState? {
        if case .unsaved = known { _ = try? await whileChanging { try storedWhileChanging() } }
        if case .unsaved(let pending, _) = known { return pending }
        return try readStored()
    }

    /// The stored session, read while changing; tokens the storage refused earlier are
    /// written first (unless the storage moved on meanwhile) and win when it refuses again.
    private func storedWhileChanging() throws -> AuthState? {
        let stored = try readStored()
        guard case .unsaved(let pending, let replacing) = known else { return stored }
        guard stored == replacing else {
            HaapiLogger.warning(OIDCFollowUpTag.session, "the session changed in storage; the tokens it could not take earlier are dropped")
            known = .nothing
            return stored
        }
        do {
            try write(pending)
        } catch {
            HaapiLogger.error(OIDCFollowUpTag.session, "the storage still refuses the refreshed tokens: \(error)")
        }
        return pending
    }

    /// The stored session, decoded unless it is the value last read or written. Tokens the
    /// storage refused earlier stay known.
    private func readStored() throws -> AuthState? {
        let data = try storage.read(key: storageKey)
        if case .stored(let last, let state) = known, last == data { return state }
        let state = try data.map(AuthState.init(storedData:))
        if case .unsaved = known { return state }
        known = data.flatMap { data in state.map { .stored(data: data, state: $0) } } ?? .nothing
        return state
    }

    private func write(_ state: AuthState) throws {
        let data = try state.storedData()
        try storage.write(key: storageKey, data: data)
        known = .stored(data: data, state: state)
    }

    /// Writes refreshed tokens; when the storage refuses, keeps them in memory to use and to
    /// write at the next call, since the refresh token they replace may be spent already.
    private func keep(_ state: AuthState, replacing previous: AuthState) {
        do {
            try write(state)
        } catch {
            HaapiLogger.error(OIDCFollowUpTag.session, "the refreshed tokens could not be stored (\(error)); kept in memory, stored at the next call")
            if case .unsaved(_, let replacing) = known {
                known = .unsaved(state, replacing: replacing)
            } else {
                known = .unsaved(state, replacing: previous)
            }
        }
    }

    private func delete() throws {
        try storage.delete(key: storageKey)
        known = .nothing
        lastRotation = nil
    }

    private func dpop(for state: AuthState?) throws -> Dpop? {
        guard let key = state?.dpopKey else { return nil }
        if let holder, holder.key == key { return holder.dpop }
        let dpop = try Dpop(privateJWK: key)
        holder = (key, dpop)
        return dpop
    }

    /// Runs `body` as the only change of the session in this process and, with a ``lock``,
    /// among all the processes sharing the storage.
    private func whileChanging<T>(_ body: () async throws -> T) async throws -> T {
        try await changes.run {
            guard let lock else { return try await body() }
            let key = storageKey
            return try await lock.withLock(
                timeout: options.lockTimeout,
                whileWaiting: { holder in
                    HaapiLogger.debug(OIDCFollowUpTag.session, "waiting for the lock of \"\(key)\", held by \(holder.map { "\($0)" } ?? "another process")")
                }, body)
        }
    }
}

/// Sees one token-endpoint exchange of a ``TokenSession``: the answer and the HTTP response it
/// came in, or the failure.
public typealias TokenEndpointObserver = @Sendable (Result<(result: TokenEndpointResponse, response: TransportResponse), any Error>) -> Void

extension AccessToken {
    /// The access token of a session.
    init(_ state: AuthState) {
        self.init(value: state.accessToken, tokenType: state.tokenType, expiresAt: state.accessTokenExpiresAt)
    }
}
