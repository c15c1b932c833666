import Foundation
import HaapiDriver
import OAuthCore

/// What an accessor is built for (the seeds' `HaapiAccessorOption`).
public enum HaapiAccessorOption: Sendable, Hashable {
    /// HAAPI flows and OAuth tokens.
    case haapi
    /// OAuth token operations only (refresh, revoke), for example in an app extension.
    case oauth
}

/// What ``HaapiAccessorBuilder/build()`` makes (the seeds' `HaapiAccessor`).
public struct HaapiAccessor: Sendable {
    /// The HAAPI flow manager (`nil` for the `.oauth` option).
    public let haapiManager: HaapiManager?
    /// The token manager, with the credentials the access strategy settled on.
    public let oAuthTokenManager: OAuthTokenManager
    /// The HAAPI access-token manager behind ``haapiManager``.
    public let haapiTokenManager: HaapiTokenManager
    /// The flow's DPoP key: pass it to ``OAuthTokenManager/fetchAccessToken(with:dpop:codeVerifier:)``
    /// to bind the tokens (the seeds' `haapiManager.dpop`).
    public var dpop: Dpop { haapiTokenManager.dpop }
}

/// Builds the HAAPI and OAuth managers for a configuration and this device's capabilities
/// (the seeds' `HaapiAccessorBuilder`).
///
/// The access strategy: attestation when the device can attest (falling back to DCR when
/// configured); otherwise DCR when configured; otherwise client credentials when the client
/// has an authentication method; ``setAccessStrategy(_:)`` overrides the choice.
public final class HaapiAccessorBuilder: @unchecked Sendable {
    private var configuration: HaapiConfiguration
    private var dcrConfiguration: DCRConfiguration?
    private var option: HaapiAccessorOption = .haapi
    private var attestationProvider: (any AttestationProvider)?
    private var strategy: HaapiAccessStrategy?
    private var transport: (any HTTPTransport)?
    private var storage: (any Storage)?

    /// A builder for `haapiConfiguration`.
    public init(haapiConfiguration: HaapiConfiguration) { configuration = haapiConfiguration }

    /// Enables the DCR fallback.
    @discardableResult public func setDCRConfiguration(configuration: DCRConfiguration) -> Self {
        dcrConfiguration = configuration
        return self
    }

    /// Sets the client authentication method (client credentials and DCR).
    @discardableResult public func setClientAuthenticationMethod(method: any ClientAuthenticationMethod) -> Self {
        configuration.clientAuthenticationMethod = method
        return self
    }

    /// Chooses what to build.
    @discardableResult public func setHaapiAccessorOption(option: HaapiAccessorOption) -> Self {
        self.option = option
        return self
    }

    /// Sets the attestation provider (default: App Attest on Apple devices, none elsewhere).
    @discardableResult public func setAttestationProvider(_ provider: any AttestationProvider) -> Self {
        attestationProvider = provider
        return self
    }

    /// Forces an access strategy.
    @discardableResult public func setAccessStrategy(_ strategy: HaapiAccessStrategy) -> Self {
        self.strategy = strategy
        return self
    }

    /// Sets the network transport (default: AsyncHTTPClient with the authentication method's TLS settings).
    @discardableResult public func setTransport(_ transport: any HTTPTransport) -> Self {
        self.transport = transport
        return self
    }

    /// Sets where bound-token keys are kept (default: ``DefaultStorage``; DCR clients go to the DCR configuration's storage).
    @discardableResult public func setStorage(_ storage: any Storage) -> Self {
        self.storage = storage
        return self
    }

    /// The platform's attestation provider.
    static var platformAttestationProvider: any AttestationProvider {
        #if canImport(DeviceCheck) && canImport(CryptoKit)
        return AppAttestProvider()
        #else
        return UnsupportedAttestationProvider()
        #endif
    }

    /// The strategy the builder settles on.
    func resolvedStrategy() throws -> HaapiAccessStrategy {
        if let strategy { return strategy }
        let provider = attestationProvider ?? Self.platformAttestationProvider
        if provider.isSupported { return .attestation(provider, dcrFallback: dcrConfiguration) }
        if let dcrConfiguration { return .dcr(dcrConfiguration) }
        if !(configuration.clientAuthenticationMethod is ClientAuthenticationMethodNone) { return .clientCredentials }
        throw HaapiError.invalidConfiguration(
            reason: "this device cannot attest and neither a DCR configuration nor a client authentication method is set")
    }

    /// Builds the accessor.
    /// - Throws: ``HaapiError`` for an unusable configuration or an open manager of the same name.
    public func build() throws -> HaapiAccessor {
        let configuration = self.configuration
        let transport: any HTTPTransport
        do {
            transport = try self.transport ?? AsyncHTTPClientTransport(
                configuration: .init(timeout: configuration.timeout, tls: configuration.clientAuthenticationMethod.tlsOptions ?? TLSOptions()))
        } catch {
            throw HaapiError.invalidConfiguration(reason: "the TLS settings are unusable: \(error)")
        }
        let dpop: Dpop
        do {
            dpop = try Dpop(keyType: configuration.tokenBoundConfiguration.keyPairType ?? .p256)
        } catch {
            throw HaapiError.dpopKeyCreationFailure(cause: error)
        }
        let tokenManager = try HaapiTokenManager(
            name: configuration.name, clientID: configuration.clientId, tokenEndpointURL: configuration.tokenEndpointURL,
            strategy: try resolvedStrategy(), clientAuthenticationMethod: configuration.clientAuthenticationMethod, dpop: dpop,
            transport: transport, minTokenTtl: configuration.minTokenTtl)
        let oauth = try OAuthTokenManager(
            oauthTokenConfiguration: configuration, transport: transport, storage: storage,
            clientAuthentication: { try await tokenManager.effectiveClient.authentication })
        // With DCR the flow belongs to the registered client, known once the first token is obtained.
        let haapi = option == .haapi
            ? HaapiManager(
                haapiConfiguration: configuration, transport: HaapiDriverTransport(tokenManager: tokenManager, base: transport),
                clientIDProvider: {
                    _ = try await tokenManager.accessToken()
                    return try await tokenManager.effectiveClient.clientID
                })
            : nil
        return HaapiAccessor(haapiManager: haapi, oAuthTokenManager: oauth, haapiTokenManager: tokenManager)
    }
}
