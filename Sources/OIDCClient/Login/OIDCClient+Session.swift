import Foundation

extension AuthorizedHTTPClient {
    /// A client for an ``OIDCClient``'s session.
    public init(client: OIDCClient, transport: any HTTPTransport, minimumLifetime: TimeInterval = 30) {
        self.init(session: client.session, transport: transport, minimumLifetime: minimumLifetime)
    }
}

extension TokenSession {
    /// A session for an ``OIDCClient`` configuration's client; `lockTimeout` is in seconds
    /// (see ``/OAuthCore/TokenSession/Options/lockTimeout``).
    public init(
        configuration: OIDCConfiguration, provider: OpenIDProvider, storage: any Storage, storageKey: String = "oidc-auth-state",
        lock: (any StorageLock)? = nil, lockTimeout: TimeInterval = 60
    ) {
        let authentication = configuration.clientAuthentication
        self.init(
            clientID: configuration.clientID, provider: provider, storage: storage, storageKey: storageKey, lock: lock,
            options: Options(
                lockTimeout: lockTimeout, additionalTokenParameters: configuration.additionalTokenParameters,
                allowedSigningAlgorithms: configuration.allowedSigningAlgorithms, clockSkew: configuration.clockSkew),
            clientAuthentication: { authentication })
    }
}
