import Foundation
import HaapiDriver
import HaapiSDK
import OAuthCore

/// Builds a ``HaapiUIKitConfiguration`` (the seeds' `HaapiUIKitConfigurationBuilder`).
///
/// ```swift
/// let haapiUIKitConfiguration = HaapiUIKitConfigurationBuilder(
///     clientId: clientId, baseUrl: baseURL, tokenEndpointUrl: tokenEndpointURL,
///     authorizationEndpointUrl: authorizationEndpointURL, appRedirect: appRedirectURIString)
///     .setTokenBoundConfiguration(configuration: BoundedTokenConfiguration())
///     .setAutoPollingDuration(duration: 2)
///     .build()
/// ```
///
/// Each setter changes the builder and returns it, so calls chain, or stand alone on a `let`.
public final class HaapiUIKitConfigurationBuilder: @unchecked Sendable {
    // Meant for one thread, as the seeds use it; `build()` returns a copy.
    private var configuration: HaapiUIKitConfiguration

    /// A builder for an SDK configuration made elsewhere.
    public init(haapiConfiguration: HaapiConfiguration) {
        configuration = HaapiUIKitConfiguration(haapiConfiguration: haapiConfiguration)
    }

    /// A builder for a client, its server's endpoints and the app's redirect URI, as the seeds
    /// write it. The configuration's `name` is the client id; tokens are not bound until
    /// ``setTokenBoundConfiguration(configuration:)`` says so (seed 000: "don't set any
    /// configuration as it is the default behaviour").
    public convenience init(clientId: String, baseUrl: URL, tokenEndpointUrl: URL, authorizationEndpointUrl: URL, appRedirect: String) {
        self.init(haapiConfiguration: HaapiConfiguration(
            name: clientId, clientId: clientId, baseURL: baseUrl, tokenEndpointURL: tokenEndpointUrl,
            authorizationEndpointURL: authorizationEndpointUrl, appRedirect: appRedirect,
            tokenBoundConfiguration: UnboundedTokenConfiguration()))
    }

    /// Seconds between automatic polls (default 3; `0` turns automatic polling off).
    @discardableResult public func setAutoPollingDuration(duration: TimeInterval) -> Self {
        configuration.autoPollingDuration = duration
        return self
    }

    /// Whether the UI gives feedback on an error that stops the flow before ending it (default `true`).
    @discardableResult public func setShouldAutoHandleFlowErrorFeedback(value: Bool) -> Self {
        configuration.shouldAutoHandleFlowErrorFeedback = value
        return self
    }

    /// How the flow is presented (default `.modal`).
    @discardableResult public func setPresentationMode(mode: PresentationMode) -> Self {
        configuration.presentationMode = mode
        return self
    }

    /// How authenticator selectors are presented (default `.list`).
    @discardableResult public func setAuthenticationSelectionPresentation(presentation: AuthenticatorSelectionPresentation) -> Self {
        configuration.authenticationSelectionPresentation = presentation
        return self
    }

    /// Whether cancelling asks for confirmation first (default `true`; the seeds' `shouldConfirmFlowInterruption`).
    @discardableResult public func setShouldConfirmInterruptionFlow(value: Bool) -> Self {
        configuration.shouldConfirmFlowInterruption = value
        return self
    }

    /// Whether external-browser operations use the default browser (default `false`).
    @discardableResult public func setUseDefaultExternalBrowser(value: Bool) -> Self {
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

    /// Collects the device context risk-assessment services ask for, with the app's bundle
    /// identifier (see ``RiskAssessmentConfiguration``).
    @discardableResult public func setApplicationBundle(_ bundle: Bundle) -> Self {
        configuration.haapiConfiguration.riskAssessmentConfiguration = RiskAssessmentConfiguration(bundle: bundle)
        return self
    }

    /// Sets the authorization request's parameters (scopes, state, ...), asked for at each start.
    @discardableResult public func setOauthAuthorizationParamsProvider(provider: @escaping OAuthAuthorizationParametersProvider) -> Self {
        configuration.haapiConfiguration.authorizationParametersProvider = provider
        return self
    }

    /// Sets extra header fields for every HAAPI request.
    @discardableResult public func setHttpHeadersProvider(provider: @escaping HttpHeadersProvider) -> Self {
        configuration.haapiConfiguration.httpHeadersProvider = provider
        return self
    }

    /// Sets the shortest lifetime a cached HAAPI access token may have left to be reused.
    @discardableResult public func setMinTokenTtl(value: TimeInterval) -> Self {
        configuration.haapiConfiguration.minTokenTtl = value
        return self
    }

    /// Sets the revocation endpoint, for ``OAuthLifecycle``'s revocations.
    @discardableResult public func setRevocationEndpointUrl(endpoint: URL) -> Self {
        configuration.haapiConfiguration.revocationEndpointURL = endpoint
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

    /// The configuration.
    public func build() -> HaapiUIKitConfiguration { configuration }
}
