import Foundation
import HaapiDriver
import HaapiSDK
import OAuthCore

/// Everything a flow needs: how to reach the server (a ``/HaapiSDK/HaapiConfiguration``) and how the
/// flow behaves and is presented (the seeds' `HaapiUIKitConfiguration`).
///
/// Make one with ``HaapiUIKitConfigurationBuilder``.
public struct HaapiUIKitConfiguration: Sendable {
    /// The SDK configuration (client, endpoints, redirect, token binding, client authentication).
    public var haapiConfiguration: HaapiConfiguration
    /// Seconds between automatic polls of a polling step (default 3). When the server gives
    /// an `interval`, it wins. `0` (or less) turns automatic polling off: the UI calls
    /// ``HaapiFlowViewModel/poll()`` itself.
    public var autoPollingDuration: TimeInterval
    /// What happens when an error stops the flow (an unexpected problem, a failure of the
    /// network or of the SDK). `true` (the default): the UI shows the error and the flow ends
    /// when the user has seen it (``HaapiFlowViewModel/acknowledgeError()``); `false`: the flow
    /// ends at once and the app gives the feedback. Either way the ``HaapiFlowResult`` receives
    /// the error. Problems the user can correct (invalid input, wrong credentials) always stay
    /// on their step.
    public var shouldAutoHandleFlowErrorFeedback: Bool
    /// How the flow is presented (default ``PresentationMode/modal``).
    public var presentationMode: PresentationMode
    /// How authenticator selectors are presented (default ``AuthenticatorSelectionPresentation/list``).
    public var authenticationSelectionPresentation: AuthenticatorSelectionPresentation
    /// Whether ``HaapiFlowViewModel/cancel()`` asks the UI to confirm before abandoning the
    /// flow (default `true`; see ``HaapiFlowViewModel/confirmCancel()``).
    public var shouldConfirmFlowInterruption: Bool
    /// Whether an external-browser operation uses the system's default browser rather than an
    /// in-app browser session (default `false`). Carried to the UI in
    /// ``KitExternalBrowserModel/prefersDefaultBrowser``.
    public var useDefaultExternalBrowser: Bool
    /// What the flow's accessor is built with (DCR fallback, attestation provider, access
    /// strategy, transport, storage): handed whole to ``/HaapiSDK/HaapiAccessorBuilder``.
    public var accessorOptions: HaapiAccessorOptions
    /// Whether a passkey ceremony that no authenticator of the device answers (or that the user
    /// declines) continues in the browser, when the step offers that fallback (default `true`);
    /// `false` says passkeys cannot be used here and the step stays.
    public var usePasskeysBrowserFallback: Bool
    /// Whether the application's accessor, when it is built, forgets a DCR client registered by
    /// an earlier run and registers anew (default `false`).
    public var shouldClearExistingDCRClient: Bool

    /// Makes a configuration with the documented defaults.
    public init(
        haapiConfiguration: HaapiConfiguration, autoPollingDuration: TimeInterval = 3,
        shouldAutoHandleFlowErrorFeedback: Bool = true, presentationMode: PresentationMode = .modal,
        shouldConfirmFlowInterruption: Bool = true, authenticationSelectionPresentation: AuthenticatorSelectionPresentation = .list,
        useDefaultExternalBrowser: Bool = false, accessorOptions: HaapiAccessorOptions = HaapiAccessorOptions(),
        usePasskeysBrowserFallback: Bool = true, shouldClearExistingDCRClient: Bool = false
    ) {
        self.usePasskeysBrowserFallback = usePasskeysBrowserFallback
        self.shouldClearExistingDCRClient = shouldClearExistingDCRClient
        self.haapiConfiguration = haapiConfiguration
        self.autoPollingDuration = autoPollingDuration
        self.shouldAutoHandleFlowErrorFeedback = shouldAutoHandleFlowErrorFeedback
        self.presentationMode = presentationMode
        self.shouldConfirmFlowInterruption = shouldConfirmFlowInterruption
        self.authenticationSelectionPresentation = authenticationSelectionPresentation
        self.useDefaultExternalBrowser = useDefaultExternalBrowser
        self.accessorOptions = accessorOptions
    }

    /// Whether tokens are bound to the flow's DPoP key (the token-bound configuration has a key type).
    public var isTokenBound: Bool { haapiConfiguration.tokenBoundConfiguration.bindsTokens }

    /// The configuration's ``/HaapiSDK/HaapiAccessorBuilder``: its SDK configuration and accessor options.
    public func makeAccessorBuilder() -> HaapiAccessorBuilder {
        HaapiAccessorBuilder(haapiConfiguration: haapiConfiguration, options: accessorOptions)
    }

    /// The accessor of a flow: built as configured (``shouldClearExistingDCRClient``).
    public func makeHaapiAccessor() async throws -> any HaapiAccessor {
        try await makeAccessorBuilder().build(shouldClearExistingDCRClient: shouldClearExistingDCRClient)
    }
}
