import Foundation
import OAuthCore

#if canImport(Darwin)
    import OAuthTransportURLSession
#else
    import OAuthTransportNIO
#endif

/// Makes a ``HaapiTokenManager`` as Curity's SDK does (Curity's `HaapiTokenManagerBuilder`):
/// for apps that call their own APIs with HAAPI tokens, without a HAAPI flow.
///
/// ```swift
/// let tokenManager = try HaapiTokenManagerBuilder(tokenEndpoint: tokenEndpoint, clientId: "app")
///     .setTokenBoundConfiguration(config: BoundedTokenConfiguration(keyPairType: .p256))
///     .build()
/// let client = tokenManager.createClient()
/// ```
///
/// Tokens come by attestation when the device can attest (and attestation is not disabled),
/// otherwise by client credentials with the client authentication method; with neither,
/// ``build()`` throws. Safe to share between tasks: its settings are behind a lock.
public final class HaapiTokenManagerBuilder: NSObject, Sendable {
    private struct Settings {
        let tokenEndpoint: URL
        let clientId: String
        var name: String
        var minTokenTtl: TimeInterval = 120
        var attests = true
        var attestationMaxRetries = AttestationConfiguration().attestationMaxRetries
        var tokenBoundConfiguration: any TokenBoundConfiguration = BoundedTokenConfiguration()
        var clientAuthenticationMethod: any ClientAuthenticationMethod = ClientAuthenticationMethodNone()
        var riskAssessmentConfiguration: RiskAssessmentConfiguration?
        var attestationProvider: (any AttestationProvider)?
        var transport: (any HTTPTransport)?
        #if canImport(Darwin)
            var sessionConfiguration: URLSessionConfiguration?
        #endif
    }

    private let settings: LockedValue<Settings>

    /// A builder for the client `clientId` of the token endpoint `tokenEndpoint`; the manager is
    /// named after the client until ``setName(_:)`` names it.
    public init(tokenEndpoint: URL, clientId: String) {
        settings = LockedValue(Settings(tokenEndpoint: tokenEndpoint.absoluteURL, clientId: clientId, name: clientId))
    }

    private func set(_ change: (inout Settings) -> Void) -> Self {
        settings.withLock { change(&$0) }
        return self
    }

    /// Names the manager (one open manager per name).
    @discardableResult public func setName(_ name: String) -> Self { set { $0.name = name } }

    #if canImport(Darwin)
        /// The session whose configuration the token requests are made with (a copy, made
        /// `URLSessionConfiguration.haapi`-safe, behind the package's own session delegate).
        @discardableResult public func setInternalUrlSession(_ urlSession: URLSession) -> Self {
            set { $0.sessionConfiguration = urlSession.configuration }
        }
    #endif

    /// The shortest lifetime a cached token may have left to be reused, in seconds (default 120).
    @discardableResult public func setHaapiTokenMinTtl(_ minTtl: TimeInterval) -> Self { set { $0.minTokenTtl = minTtl } }

    /// Obtains tokens by client credentials even on a device that can attest (for simulators).
    @discardableResult public func disableDeviceCheckAttestation() -> Self { set { $0.attests = false } }

    /// How many more times a failed attestation is tried (default 3).
    @discardableResult public func setAttestationMaxRetryCount(maxRetries: Int) -> Self {
        set { $0.attestationMaxRetries = max(0, maxRetries) }
    }

    /// The key the tokens are bound to: a DPoP key of the configuration's type (HAAPI tokens are
    /// always DPoP-bound).
    @discardableResult public func setTokenBoundConfiguration(config: any TokenBoundConfiguration) -> Self {
        set { $0.tokenBoundConfiguration = config }
    }

    /// How the client authenticates when it does not attest (default: none).
    @discardableResult public func setClientAuthenticationMethod(method: any ClientAuthenticationMethod) -> Self {
        set { $0.clientAuthenticationMethod = method }
    }

    /// The device context risk-assessment services ask for (kept for them; see ``RiskAssessmentConfiguration``).
    @discardableResult public func setRiskAssessmentConfiguration(_ configuration: RiskAssessmentConfiguration) -> Self {
        set { $0.riskAssessmentConfiguration = configuration }
    }

    /// The attestation provider (default: ``platformAttestationProvider``).
    @discardableResult public func setAttestationProvider(_ provider: any AttestationProvider) -> Self {
        set { $0.attestationProvider = provider }
    }

    /// The network (default: the platform's: URLSession on Apple platforms, with the client
    /// authentication method's TLS settings).
    @discardableResult public func setTransport(_ transport: any HTTPTransport) -> Self { set { $0.transport = transport } }

    /// The risk-assessment configuration set, if any.
    public var riskAssessmentConfiguration: RiskAssessmentConfiguration? { settings.withLock { $0.riskAssessmentConfiguration } }

    /// Makes the manager.
    /// - Throws: ``HaapiError/invalidConfiguration(reason:)`` when the device cannot attest (or
    ///   attestation is disabled) and no client authentication method is set, when there is no
    ///   transport for the TLS settings, or when no network is given outside Apple platforms;
    ///   ``HaapiError/dpopKeyCreationFailure(cause:)``; ``HaapiError/haapiTokenManagerAlreadyExists(name:)``.
    public func build() throws -> HaapiTokenManager {
        let settings = settings.withLock { $0 }
        let strategy = try HaapiAccessStrategy.resolve(
            provider: settings.attests ? settings.attestationProvider ?? Self.platformAttestationProvider : nil, dcrFallback: nil,
            clientAuthenticationMethod: settings.clientAuthenticationMethod)
        let transport: any HTTPTransport
        if let given = settings.transport {
            transport = given
        } else {
            let configuration = TransportConfiguration(tls: settings.clientAuthenticationMethod.tlsOptions ?? TLSOptions())
            #if canImport(Darwin)
                transport = try Self.platformTransport(configuration, sessionConfiguration: settings.sessionConfiguration ?? .haapi)
            #else
                transport = try Self.platformTransport(configuration)
            #endif
        }
        return try HaapiTokenManager(
            name: settings.name, clientID: settings.clientId, tokenEndpointURL: settings.tokenEndpoint, strategy: strategy,
            clientAuthenticationMethod: settings.clientAuthenticationMethod,
            dpop: try Dpop.makeBound(settings.tokenBoundConfiguration), transport: transport, minTokenTtl: settings.minTokenTtl,
            attestationMaxRetries: settings.attestationMaxRetries)
    }

    #if canImport(Darwin)
        /// The platform's transport: URLSession, with `sessionConfiguration`'s settings.
        /// - Throws: ``HaapiError/invalidConfiguration(reason:)`` for unusable TLS settings.
        package static func platformTransport(
            _ configuration: TransportConfiguration, sessionConfiguration: URLSessionConfiguration
        ) throws -> any HTTPTransport {
            do {
                return try URLSessionTransport(configuration: configuration, sessionConfiguration: sessionConfiguration)
            } catch {
                throw HaapiError.invalidConfiguration(reason: "the TLS settings are unusable: \(error)")
            }
        }
    #else
        /// The platform's transport: AsyncHTTPClient, which applies every TLS setting
        /// (FoundationNetworking's URLSession applies none) and does not load libcurl.
        /// - Throws: ``HaapiError/invalidConfiguration(reason:)`` for unusable TLS settings.
        package static func platformTransport(_ configuration: TransportConfiguration) throws -> any HTTPTransport {
            do {
                return try AsyncHTTPClientTransport(configuration: configuration)
            } catch {
                throw HaapiError.invalidConfiguration(reason: "the TLS settings are unusable: \(error)")
            }
        }
    #endif

    /// The attestation provider of builders that are not given one: App Attest on Apple
    /// devices; elsewhere none (``UnsupportedAttestationProvider``) unless the app sets its
    /// platform's here, once, at start-up. Setting ``InsecureSoftwareAttestationProvider`` is for
    /// development servers only, and says so in the log each time it is used.
    public static var platformAttestationProvider: any AttestationProvider {
        get { scopedPlatformProvider ?? platformProvider.withLock { $0 } }
        set { platformProvider.withLock { $0 = newValue } }
    }

    /// Runs `body` with ``platformAttestationProvider`` replaced by `provider` for it and the
    /// tasks it starts, and nowhere else: for tests of code that builds managers itself.
    public nonisolated(nonsending) static func withPlatformAttestationProvider<T>(
        _ provider: any AttestationProvider, _ body: () async throws -> T
    ) async rethrows -> T {
        try await $scopedPlatformProvider.withValue(provider) { try await body() }
    }

    @TaskLocal private static var scopedPlatformProvider: (any AttestationProvider)?

    private static let platformProvider: LockedValue<any AttestationProvider> = {
        #if canImport(DeviceCheck) && canImport(CryptoKit)
            return LockedValue(AppAttestProvider())
        #else
            return LockedValue(UnsupportedAttestationProvider())
        #endif
    }()
}

extension HaapiAccessStrategy {
    /// The strategy of a client: attestation with `provider` when it can attest (falling back to
    /// `dcrFallback` when given); otherwise the DCR fallback; otherwise client credentials when
    /// the client has an authentication method.
    /// - Parameters:
    ///   - provider: the attestation provider, `nil` when attestation is not used.
    ///   - dcrFallback: the dynamic client registration to use when attestation is not possible, if any.
    ///   - clientAuthenticationMethod: the client's credentials, for client credentials and DCR.
    /// - Throws: ``HaapiError/invalidConfiguration(reason:)`` when none of them is possible.
    public static func resolve(
        provider: (any AttestationProvider)?, dcrFallback: DCRConfiguration?, clientAuthenticationMethod: any ClientAuthenticationMethod
    ) throws -> HaapiAccessStrategy {
        if let provider {
            if provider is InsecureSoftwareAttestationProvider {
                HaapiLogger.warning(
                    DriverFollowUpTag.attestation, "attesting with InsecureSoftwareAttestationProvider: for development servers only")
            }
            if provider.isSupported { return .attestation(provider, dcrFallback: dcrFallback) }
        }
        if let dcrFallback { return .dcr(dcrFallback) }
        if !(clientAuthenticationMethod is ClientAuthenticationMethodNone) { return .clientCredentials }
        throw HaapiError.invalidConfiguration(
            reason: provider == nil
                ? "attestation is disabled and neither a DCR configuration nor a client authentication method is set"
                : "this device cannot attest and neither a DCR configuration nor a client authentication method is set")
    }
}

extension Dpop {
    /// A new key of `configuration`'s type.
    /// - Throws: ``HaapiError/dpopKeyCreationFailure(cause:)``.
    package static func makeBound(_ configuration: any TokenBoundConfiguration) throws -> Dpop {
        do {
            return try Dpop(keyType: configuration.keyPairType)
        } catch {
            throw HaapiError.dpopKeyCreationFailure(cause: error)
        }
    }
}
