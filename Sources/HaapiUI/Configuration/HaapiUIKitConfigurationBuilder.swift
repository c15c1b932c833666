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
/// Safe to share between tasks and threads: the configuration is behind a lock, and `build()`
/// returns a copy.
public final class HaapiUIKitConfigurationBuilder: _HaapiAccessorSettingsBuilder, Sendable {
    private let configuration: LockedValue<HaapiUIKitConfiguration>

    /// A builder for an SDK configuration made elsewhere.
    public init(haapiConfiguration: HaapiConfiguration) {
        configuration = LockedValue(HaapiUIKitConfiguration(haapiConfiguration: haapiConfiguration))
    }

    /// One change of the configuration, under the lock.
    private func set(_ change: (inout HaapiUIKitConfiguration) -> Void) -> Self {
        configuration.withLock { change(&$0) }
        return self
    }

    /// Makes one change of the SDK configuration and the accessor options, under the lock (the
    /// setters of `_HaapiAccessorSettingsBuilder`).
    public func _change(_ change: (inout HaapiConfiguration, inout HaapiAccessorOptions) -> Void) {
        configuration.withLock { change(&$0.haapiConfiguration, &$0.accessorOptions) }
    }

    /// A builder for a client, its server's endpoints and the app's redirect URI, as the seeds
    /// write it. The configuration's `name` is the client id; tokens are not bound until
    /// ``setTokenBoundConfiguration(configuration:)`` says so (seed 000: "don't set any
    /// configuration as it is the default behaviour").
    public convenience init(clientId: String, baseUrl: URL, tokenEndpointUrl: URL, authorizationEndpointUrl: URL, appRedirect: String) {
        self.init(
            haapiConfiguration: HaapiConfiguration(
                name: clientId, clientId: clientId, baseURL: baseUrl, tokenEndpointURL: tokenEndpointUrl,
                authorizationEndpointURL: authorizationEndpointUrl, appRedirect: appRedirect,
                tokenBoundConfiguration: UnboundedTokenConfiguration()))
    }

    /// Seconds between automatic polls (default 3; `0` turns automatic polling off).
    @discardableResult public func setAutoPollingDuration(duration: TimeInterval) -> Self {
        set { $0.autoPollingDuration = duration }
    }

    /// Whether the UI gives feedback on an error that stops the flow before ending it (default `true`).
    @discardableResult public func setShouldAutoHandleFlowErrorFeedback(value: Bool) -> Self {
        set { $0.shouldAutoHandleFlowErrorFeedback = value }
    }

    /// How the flow is presented (default `.modal`).
    @discardableResult public func setPresentationMode(mode: PresentationMode) -> Self {
        set { $0.presentationMode = mode }
    }

    /// How authenticator selectors are presented (default `.list`).
    @discardableResult public func setAuthenticationSelectionPresentation(presentation: AuthenticatorSelectionPresentation) -> Self {
        set { $0.authenticationSelectionPresentation = presentation }
    }

    /// Whether cancelling asks for confirmation first (default `true`; the seeds' `shouldConfirmFlowInterruption`).
    @discardableResult public func setShouldConfirmInterruptionFlow(value: Bool) -> Self {
        set { $0.shouldConfirmFlowInterruption = value }
    }

    /// Whether external-browser operations use the default browser (default `false`).
    @discardableResult public func setUseDefaultExternalBrowser(value: Bool) -> Self {
        set { $0.useDefaultExternalBrowser = value }
    }

    /// Binds (``/HaapiDriver/BoundedTokenConfiguration``) or does not bind (``/HaapiDriver/UnboundedTokenConfiguration``)
    /// the flow's tokens to its DPoP key. Mandatory when the server issues token-bound codes.
    @discardableResult public func setTokenBoundConfiguration(configuration value: any TokenBoundConfiguration) -> Self {
        set { $0.haapiConfiguration.tokenBoundConfiguration = value }
    }

    /// Collects the device context risk-assessment services ask for, with the app's bundle
    /// identifier (see ``/HaapiDriver/RiskAssessmentConfiguration``).
    @discardableResult public func setApplicationBundle(_ bundle: Bundle) -> Self {
        setRiskAssessmentConfiguration(RiskAssessmentConfiguration(bundle: bundle))
    }

    /// Sets the authorization request's parameters (scopes, state, ...), asked for at each start.
    @discardableResult public func setOauthAuthorizationParamsProvider(provider: @escaping OAuthAuthorizationParametersProvider) -> Self {
        set { $0.haapiConfiguration.authorizationParametersProvider = provider }
    }

    /// Sets extra header fields for every HAAPI request.
    @discardableResult public func setHttpHeadersProvider(provider: @escaping HttpHeadersProvider) -> Self {
        set { $0.haapiConfiguration.httpHeadersProvider = provider }
    }

    /// Sets the shortest lifetime a cached HAAPI access token may have left to be reused.
    @discardableResult public func setMinTokenTtl(value: TimeInterval) -> Self {
        set { $0.haapiConfiguration.minTokenTtl = value }
    }

    /// Sets the revocation endpoint, for ``OAuthLifecycle``'s revocations.
    @discardableResult public func setRevocationEndpointUrl(endpoint: URL) -> Self {
        set { $0.haapiConfiguration.revocationEndpointURL = endpoint }
    }

    /// Whether a passkey ceremony the device cannot complete continues in the browser when the
    /// step offers that (default `true`).
    @discardableResult public func setUsePasskeysBrowserFallback(_ value: Bool) -> Self {
        set { $0.usePasskeysBrowserFallback = value }
    }

    /// Names what the client keeps (its keys, its DCR client, its tokens) apart from other
    /// configurations': the SDK configuration's `name`.
    @discardableResult public func setKeyStoreAlias(alias: String) -> Self {
        set { $0.haapiConfiguration.name = alias }
    }

    /// Whether redirection steps are followed without showing them (default `true`).
    @discardableResult public func setIsAutoRedirect(value: Bool) -> Self {
        set { $0.haapiConfiguration.isAutoRedirect = value }
    }

    #if canImport(Darwin)
        /// Sets the session whose configuration requests are made with (see ``/HaapiSDK/HaapiConfiguration/urlSession``).
        @discardableResult public func setURLSession(session: URLSession) -> Self {
            set { $0.haapiConfiguration.urlSession = session }
        }
    #endif

    /// Sets the device context risk-assessment services (BankID's) ask for.
    @discardableResult public func setRiskAssessmentConfiguration(_ configuration: RiskAssessmentConfiguration) -> Self {
        set { $0.haapiConfiguration.riskAssessmentConfiguration = configuration }
    }

    /// Whether the application's accessor forgets a DCR client registered earlier when it is
    /// built (default `false`).
    @discardableResult public func setShouldClearExistingDCRClient(value: Bool) -> Self {
        set { $0.shouldClearExistingDCRClient = value }
    }

    /// Sets whether the client attests, and how often attestation is retried.
    @discardableResult public func setAttestationConfiguration(configuration value: AttestationConfiguration) -> Self {
        set { $0.haapiConfiguration.attestationConfiguration = value }
    }

    /// The configuration.
    public func build() -> HaapiUIKitConfiguration { configuration.withLock { $0 } }
}

extension RiskAssessmentConfiguration {
    /// The context of this device and of the app in `bundle` (Curity's UI-kit initialiser).
    /// - Throws: ``/HaapiDriver/HaapiError/invalidConfiguration(reason:)`` when the bundle has no identifier,
    ///   which a risk-assessment service needs to know the app.
    public init(_ bundle: Bundle = .main) throws {
        guard bundle.bundleIdentifier != nil else {
            throw HaapiError.invalidConfiguration(reason: "the bundle \(bundle.bundlePath) has no identifier")
        }
        self.init(bundle: bundle)
    }
}
