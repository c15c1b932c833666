import Foundation
import HaapiDriver
import OAuthCore

extension OAuthTokenManager {
    /// A ``/OAuthCore/TokenSession`` for this configuration's client: the place to keep a flow's tokens
    /// so that they are refreshed, shared with app extensions and revoked without code of the
    /// app's own. Its requests use this manager's transport and client credentials (a
    /// dynamically registered client's too).
    ///
    /// ```swift
    /// // In the app, when the flow ends with tokens:
    /// let session = try manager.tokenSession(storage: KeychainStorage(service: "tokens", accessGroup: group),
    ///                                        lock: FileLock(url: groupContainer.appendingPathComponent("tokens.lock")))
    /// try await manager.startSession(session, with: tokenModel.response, nonce: await haapiManager.nonce)
    /// // In the app or its extension (an `.oauth` accessor's manager), whenever a token is needed:
    /// let token = try await session.validAccessToken(minimumLifetime: 30)
    /// ```
    ///
    /// - Parameters:
    ///   - storage: where the session is kept (default: this manager's ``storage``); share it
    ///     between an app and its extensions, as seed 000's shared storage.
    ///   - storageKey: the key of the session (default `haapi-token-session.<configuration name>`).
    ///   - lock: the lock processes sharing `storage` refresh under (see ``/OAuthCore/TokenSession/init(clientID:provider:storage:storageKey:lock:options:clientAuthentication:)``).
    ///   - issuer: the server's issuer, when the app knows it: its discovery document supplies the
    ///     keys that verify ID tokens and the UserInfo endpoint. Without it, the configuration's
    ///     endpoints are used and ID tokens are taken as the token endpoint sends them.
    ///   - lockTimeout: how long to wait for another process's refresh, in seconds.
    /// - Throws: ``/HaapiDriver/HaapiError/invalidConfiguration(reason:)`` when the configuration gives no
    ///   usable transport.
    public func tokenSession(
        storage: (any Storage)? = nil, storageKey: String? = nil, lock: (any StorageLock)? = nil, issuer: URL? = nil,
        lockTimeout: TimeInterval = 60
    ) throws -> TokenSession {
        let transport = try transport.get()
        let configuration = self.configuration
        return TokenSession(
            clientID: configuration.clientId, provider: try configuration.provider(issuer: issuer, transport: transport),
            storage: storage ?? self.storage,
            storageKey: storageKey ?? configuration.tokenSessionStorageKey, lock: lock,
            options: TokenSession.Options(lockTimeout: lockTimeout), clientAuthentication: clientAuthentication)
    }

    /// Starts `session` with the tokens a flow ended with (``/OAuthCore/TokenSession/start(with:dpop:nonce:maxAge:maximumIDTokenAge:requiresIDToken:)``),
    /// bound to the key this manager exchanged the code with, or to `dpop` when given. Pass the
    /// flow's ``HaapiManager/nonce``: the ID token must carry it.
    /// - Throws: the errors of ``/OAuthCore/TokenSession/start(with:dpop:nonce:maxAge:maximumIDTokenAge:requiresIDToken:)``; ``/HaapiDriver/HaapiError/dpopProofFailure(message:cause:)``
    ///   when the key the tokens are bound to cannot be read.
    @discardableResult
    public func startSession(
        _ session: TokenSession, with tokens: SuccessfulTokenResponse, dpop: Dpop? = nil, nonce: String? = nil
    ) async throws -> AuthState {
        var key = dpop
        if key == nil, tokens.isDPoPBound {
            do {
                key = try await boundKey(for: tokens)
            } catch {
                throw HaapiError.dpopProofFailure(message: "the key the tokens are bound to cannot be read", cause: error)
            }
        }
        return try await session.start(with: try tokens.tokenSuccessResponse(), dpop: key, nonce: nonce)
    }
}

extension HaapiConfiguration {
    /// The key of the configuration's tokens in a storage.
    var tokenSessionStorageKey: String { "haapi-token-session.\(name)" }

    /// The server: discovered at `issuer` with the configuration's endpoints winning, or, without
    /// an issuer, described by them (named by ``baseURL``).
    func provider(issuer: URL?, transport: any HTTPTransport) throws -> OpenIDProvider {
        try OpenIDProvider(
            issuer: issuer,
            endpoints: ProviderEndpoints(
                authorization: authorizationEndpointURL, token: tokenEndpointURL, revocation: revocationEndpointURL),
            standInIssuer: baseURL.absoluteString, transport: transport)
    }
}
