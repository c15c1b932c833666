import Foundation
import HaapiDriver
import HaapiSDK
import OAuthCore

/// Builds a ``HaapiUIConfiguration`` (the seeds' `HaapiUIKitConfigurationBuilder`).
///
/// ```swift
/// let configuration = HaapiUIConfigurationBuilder(
///     clientId: "my-client", baseUrl: base, tokenEndpointUrl: token, authorizationEndpointUrl: authorize,
///     appRedirect: "app://callback")
///     .setTokenBoundConfiguration(configuration: BoundedTokenConfiguration())
///     .setAutoPollingDuration(2)
///     .build()
/// ```
public final class HaapiUIConfigurationBuilder: @unchecked Sendable {
    private var configuration: HaapiUIConfiguration

    /// A builder for an SDK configuration made elsewhere.
    public init(haapiConfiguration: HaapiConfiguration) {
        configuration = HaapiUIConfiguration(haapiConfiguration: haapiConfiguration)
    }

    /// A builder for a client, its server's endpoints and the app's redirect URI, as the seeds write it.
    /// The configuration's `name` is the client id; tokens are not bound until
    /// ``setTokenBoundConfiguration(configuration:)`` says so.
    public convenience init(
        clientId: String, baseUrl: URL, tokenEndpointUrl: URL, authorizationEndpointUrl: URL, appRedirect: String,
        scopes: [String] = []
    ) {
        var provider: OAuthAuthorizationParametersProvider?
        if !scopes.isEmpty { provider = { @Sendable in OAuthAuthorizationParameters(scopes: scopes) } }
        self.init(haapiConfiguration: HaapiConfiguration(
            name: clientId, clientId: clientId, baseURL: baseUrl, tokenEndpointURL: tokenEndpointUrl,
            authorizationEndpointURL: authorizationEndpointUrl, appRedirect: appRedirect,
            authorizationParametersProvider: provider,
            tokenBoundConfiguration: UnboundedTokenConfiguration()))
    }

    /// Seconds between automatic polls (default 3; `0` turns automatic polling off).
    @discardableResult public func setAutoPollingDuration(_ seconds: TimeInterval) -> Self {
        configuration.autoPollingDuration = seconds
        return self
    }

    /// Whether correctable problems stay on the step with the problem attached (default `true`).
    @discardableResult public func setShouldAutoHandleFlowErrorFeedback(_ value: Bool) -> Self {
        configuration.shouldAutoHandleFlowErrorFeedback = value
        return self
    }

    /// Whether cancelling asks for confirmation first (default `true`).
    @discardableResult public func setShouldConfirmFlowInterruption(_ value: Bool) -> Self {
        configuration.shouldConfirmFlowInterruption = value
        return self
    }

    /// How authenticator selectors are presented (default `.list`).
    @discardableResult public func setAuthenticationSelectionPresentation(_ value: AuthenticatorSelectionPresentation) -> Self {
        configuration.authenticationSelectionPresentation = value
        return self
    }

    /// Whether external-browser operations use the default browser (default `false`).
    @discardableResult public func setUseDefaultExternalBrowser(_ value: Bool) -> Self {
        configuration.useDefaultExternalBrowser = value
        return self
    }

    /// Binds (``BoundedTokenConfiguration``) or does not bind (``UnboundedTokenConfiguration``)
    /// the flow's tokens to its DPoP key. Mandatory when the server issues token-bound codes.
    @discardableResult public func setTokenBoundConfiguration(configuration value: any TokenBoundConfiguration) -> Self {
        configuration.haapiConfiguration.tokenBoundConfiguration = value
        return self
    }

    /// Enables the DCR fallback for devices that cannot attest.
    @discardableResult public func setDCRConfiguration(configuration value: DCRConfiguration) -> Self {
        configuration.dcrConfiguration = value
        return self
    }

    /// Sets how the client authenticates (client credentials and DCR).
    @discardableResult public func setClientAuthenticationMethod(method: any ClientAuthenticationMethod) -> Self {
        configuration.haapiConfiguration.clientAuthenticationMethod = method
        return self
    }

    /// Sets the attestation provider (default: the platform's).
    @discardableResult public func setAttestationProvider(_ provider: any AttestationProvider) -> Self {
        configuration.attestationProvider = provider
        return self
    }

    /// Forces an access strategy.
    @discardableResult public func setAccessStrategy(_ strategy: HaapiAccessStrategy) -> Self {
        configuration.accessStrategy = strategy
        return self
    }

    /// Sets the network transport.
    @discardableResult public func setTransport(_ transport: any HTTPTransport) -> Self {
        configuration.transport = transport
        return self
    }

    /// Sets where bound-token keys are kept.
    @discardableResult public func setStorage(_ storage: any Storage) -> Self {
        configuration.storage = storage
        return self
    }

    /// Sets the authorization request's parameters (scopes, state, ...), asked for at each start.
    @discardableResult public func setAuthorizationParametersProvider(_ provider: @escaping OAuthAuthorizationParametersProvider) -> Self {
        configuration.haapiConfiguration.authorizationParametersProvider = provider
        return self
    }

    /// The configuration.
    public func build() -> HaapiUIConfiguration { configuration }
}
