import Foundation
import HaapiDriver
import OAuthCore

/// What ``HaapiAccessorBuilder/build()`` makes (the seeds' `HaapiAccessorOption`).
public enum HaapiAccessorOption: Sendable, Hashable {
    /// HAAPI flows and OAuth tokens: an ``HaapiAccessor``.
    case all
    /// OAuth token operations only (refresh, revoke), for example in an app extension: an ``OAuthAccessor``.
    case oauth
}

/// Anything ``HaapiAccessorBuilder/build()`` can make (the seeds' `HaapiManagerAccessor`).
public protocol HaapiManagerAccessor: Sendable {}

/// OAuth token operations with the credentials the access strategy settled on (the seeds' `OAuthAccessor`).
public protocol OAuthAccessor: HaapiManagerAccessor {
    /// The token manager: code exchange, refresh, revocation.
    var oAuthTokenManager: OAuthTokenManager { get }
}

/// HAAPI flows and OAuth token operations (the seeds' `HaapiAccessor`).
public protocol HaapiAccessor: OAuthAccessor {
    /// The flow manager. Its ``HaapiManager/dpop`` is the key to bind the tokens to.
    var haapiManager: HaapiManager { get }
    /// The HAAPI access-token manager behind ``haapiManager``.
    var haapiTokenManager: HaapiTokenManager { get }
    /// Closes the managers and frees the configuration's name.
    func close() async
}

/// An accessor with the HAAPI token manager its OAuth credentials come from.
protocol HaapiTokenManaging {
    var haapiTokenManager: HaapiTokenManager { get }
}

/// What ``HaapiAccessorOption/oauth`` builds: the token manager alone.
final class BuiltOAuthAccessor: OAuthAccessor, HaapiTokenManaging {
    let oAuthTokenManager: OAuthTokenManager
    let haapiTokenManager: HaapiTokenManager

    init(oAuthTokenManager: OAuthTokenManager, haapiTokenManager: HaapiTokenManager) {
        self.oAuthTokenManager = oAuthTokenManager
        self.haapiTokenManager = haapiTokenManager
    }
}

/// What ``HaapiAccessorOption/all`` builds.
final class BuiltHaapiAccessor: HaapiAccessor, HaapiTokenManaging {
    let haapiManager: HaapiManager
    let oAuthTokenManager: OAuthTokenManager
    let haapiTokenManager: HaapiTokenManager

    init(haapiManager: HaapiManager, oAuthTokenManager: OAuthTokenManager, haapiTokenManager: HaapiTokenManager) {
        self.haapiManager = haapiManager
        self.oAuthTokenManager = oAuthTokenManager
        self.haapiTokenManager = haapiTokenManager
    }

    func close() async {
        await haapiManager.close()
        await haapiTokenManager.close()
    }
}

/// What an accessor is built with beside its ``HaapiConfiguration``: one value, set through
/// ``HaapiAccessorBuilder``'s setters or handed over whole (a UI configuration holds one), so
/// that an option is added in one place.
public struct HaapiAccessorOptions: Sendable {
    /// What to build (default ``HaapiAccessorOption/all``).
    public var option: HaapiAccessorOption = .all
    /// The DCR fallback, if any.
    public var dcrConfiguration: DCRConfiguration?
    /// The attestation provider, if not ``HaapiAccessorBuilder/platformAttestationProvider``.
    public var attestationProvider: (any AttestationProvider)?
    /// A forced access strategy, if any.
    public var accessStrategy: HaapiAccessStrategy?
    /// The network, if not the platform's (``HaapiConfiguration/timeout`` and the client
    /// authentication method's TLS settings).
    public var transport: (any HTTPTransport)?
    /// Where tokens and bound-token keys are kept, if not ``DefaultStorage`` (DCR clients go to
    /// the DCR configuration's storage).
    public var storage: (any Storage)?

    /// Options with the defaults.
    public init() {}
}

/// Builds the HAAPI and OAuth managers for a configuration and this device's capabilities
/// (the seeds' `HaapiAccessorBuilder`).
///
/// ```swift
/// let haapiAccessor: HaapiAccessor = try await HaapiAccessorBuilder(haapiConfiguration: haapiConfiguration)
///     .setDCRConfiguration(configuration: dcrConfiguration)
///     .build()
/// ```
///
/// The access strategy: attestation when the device can attest (falling back to DCR when
/// configured); otherwise DCR when configured; otherwise client credentials when the client
/// has an authentication method; ``setAccessStrategy(_:)`` overrides the choice.
///
/// Safe to share between tasks and threads: its settings are behind a lock, and `build()`
/// takes a copy of them.
public final class HaapiAccessorBuilder: Sendable {
    private let settings: LockedValue<(configuration: HaapiConfiguration, options: HaapiAccessorOptions)>

    /// A builder for `haapiConfiguration`, with `options` (default: none set).
    public init(haapiConfiguration: HaapiConfiguration, options: HaapiAccessorOptions = HaapiAccessorOptions()) {
        settings = LockedValue((haapiConfiguration, options))
    }

    /// One change of the settings, under the lock.
    private func set(_ change: (inout (configuration: HaapiConfiguration, options: HaapiAccessorOptions)) -> Void) -> Self {
        settings.withLock { change(&$0) }
        return self
    }

    /// Enables the DCR fallback.
    @discardableResult public func setDCRConfiguration(configuration: DCRConfiguration) -> Self {
        set { $0.options.dcrConfiguration = configuration }
    }

    /// Sets the client authentication method (client credentials and DCR).
    @discardableResult public func setClientAuthenticationMethod(method: any ClientAuthenticationMethod) -> Self {
        set { $0.configuration.clientAuthenticationMethod = method }
    }

    /// Chooses what to build: ``HaapiAccessorOption/all`` (the default) or ``HaapiAccessorOption/oauth``.
    @discardableResult public func setHaapiAccessorOption(option: HaapiAccessorOption) -> Self {
        set { $0.options.option = option }
    }

    /// Sets the attestation provider (default: ``platformAttestationProvider``).
    @discardableResult public func setAttestationProvider(_ provider: any AttestationProvider) -> Self {
        set { $0.options.attestationProvider = provider }
    }

    /// Forces an access strategy.
    @discardableResult public func setAccessStrategy(_ strategy: HaapiAccessStrategy) -> Self {
        set { $0.options.accessStrategy = strategy }
    }

    /// Sets the network transport (default: the platform's, with the configuration's timeout and TLS settings).
    @discardableResult public func setTransport(_ transport: any HTTPTransport) -> Self {
        set { $0.options.transport = transport }
    }

    /// Sets where tokens and bound-token keys are kept (default: ``DefaultStorage``; DCR clients go to the DCR configuration's storage).
    @discardableResult public func setStorage(_ storage: any Storage) -> Self {
        set { $0.options.storage = storage }
    }

    /// The attestation provider of builders that are not given one: App Attest on Apple
    /// devices; elsewhere none (``UnsupportedAttestationProvider``) unless the app sets its
    /// platform's here, once, at start-up. Setting ``InsecureSoftwareAttestationProvider`` is for
    /// development servers only, and says so in the log each time it is used.
    public static var platformAttestationProvider: any AttestationProvider {
        get { scopedPlatformProvider ?? platformProvider.withLock { $0 } }
        set { platformProvider.withLock { $0 = newValue } }
    }

    /// Runs `body` with ``platformAttestationProvider`` replaced by `provider` for it and the
    /// tasks it starts, and nowhere else: for tests of code that builds accessors itself.
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

    /// The strategy the builder settles on.
    func resolvedStrategy() throws -> HaapiAccessStrategy {
        let (configuration, options) = settings.withLock { $0 }
        return try Self.strategy(configuration: configuration, options: options)
    }

    private static func strategy(configuration: HaapiConfiguration, options: HaapiAccessorOptions) throws -> HaapiAccessStrategy {
        if let strategy = options.accessStrategy { return strategy }
        let provider = options.attestationProvider ?? Self.platformAttestationProvider
        if provider is InsecureSoftwareAttestationProvider {
            HaapiLogger.warning(DriverFollowUpTag.attestation, "attesting with InsecureSoftwareAttestationProvider: for development servers only")
        }
        if provider.isSupported { return .attestation(provider, dcrFallback: options.dcrConfiguration) }
        if let dcrConfiguration = options.dcrConfiguration { return .dcr(dcrConfiguration) }
        if !(configuration.clientAuthenticationMethod is ClientAuthenticationMethodNone) { return .clientCredentials }
        throw HaapiError.invalidConfiguration(
            reason: "this device cannot attest and neither a DCR configuration nor a client authentication method is set")
    }

    /// Builds the accessor the variable's type asks for: an ``HaapiAccessor`` or an ``OAuthAccessor``.
    ///
    /// ```swift
    /// let oauthAccessor: OAuthAccessor = try await builder.setHaapiAccessorOption(option: .oauth).build()
    /// ```
    /// - Throws: ``HaapiError`` for an unusable configuration, an open manager of the same name,
    ///   or an ``HaapiAccessor`` asked of a builder set to ``HaapiAccessorOption/oauth``.
    public func build<T: Sendable>() async throws -> T {
        let accessor = try assemble()
        guard let result = accessor as? T else {
            await accessor.haapiTokenManager.close()
            let made = accessor is any HaapiAccessor ? "HaapiAccessor" : "OAuthAccessor (option .oauth)"
            throw HaapiError.invalidConfiguration(reason: "build() was asked for \(T.self), but this builder makes an \(made)")
        }
        return result
    }

    /// ``build()`` with a completion handler, as the seeds' older snippets write it.
    public func build<T: Sendable>(completionHandler: @escaping @Sendable (Result<T, HaapiError>) -> Void) {
        Task {
            do {
                completionHandler(.success(try await build()))
            } catch let error as HaapiError {
                completionHandler(.failure(error))
            } catch {
                completionHandler(.failure(.illegalState(message: "\(error)")))
            }
        }
    }

    /// Makes the managers, from a copy of the settings.
    func assemble() throws -> any OAuthAccessor & HaapiTokenManaging {
        let (configuration, options) = settings.withLock { $0 }
        let parts = try AccessParts(
            configuration: configuration, strategy: try Self.strategy(configuration: configuration, options: options),
            dcrConfiguration: options.dcrConfiguration, transport: options.transport, claimsName: options.option == .all)
        let tokenManager = parts.tokenManager
        let oauth = OAuthTokenManager(
            oauthTokenConfiguration: configuration, transport: parts.transport, storage: options.storage,
            clientAuthentication: { try await tokenManager.effectiveClient.authentication })
        // With DCR the flow belongs to the registered client, known once the first token is obtained.
        guard options.option == .all else { return BuiltOAuthAccessor(oAuthTokenManager: oauth, haapiTokenManager: tokenManager) }
        return BuiltHaapiAccessor(
            haapiManager: HaapiManager(haapiConfiguration: configuration, parts: parts, ownsTokenManager: false),
            oAuthTokenManager: oauth, haapiTokenManager: tokenManager)
    }
}

/// What HAAPI requests run on: the network, and the HAAPI token manager (with the flow's DPoP key).
struct AccessParts: Sendable {
    let transport: any HTTPTransport
    let tokenManager: HaapiTokenManager

    /// - Parameter claimsName: whether the HAAPI token manager holds the configuration's name
    ///   (one flow manager per name); an OAuth-only accessor does not.
    init(
        configuration: HaapiConfiguration, strategy: HaapiAccessStrategy, dcrConfiguration: DCRConfiguration?,
        transport: (any HTTPTransport)?, claimsName: Bool = true
    ) throws {
        if let dcrConfiguration, dcrConfiguration.clientRegistrationEndpointUrl == nil {
            throw HaapiError.invalidConfiguration(reason: "the DCR configuration's clientRegistrationEndpointUrl is nil (not a URL)")
        }
        do {
            self.transport = try transport ?? configuration.defaultTransport()
        } catch {
            throw HaapiError.invalidConfiguration(reason: "the TLS settings are unusable: \(error)")
        }
        let dpop: Dpop
        do {
            dpop = try Dpop(keyType: configuration.tokenBoundConfiguration.keyPairType ?? .p256)
        } catch {
            throw HaapiError.dpopKeyCreationFailure(cause: error)
        }
        tokenManager = try HaapiTokenManager(
            name: configuration.name, clientID: configuration.clientId, tokenEndpointURL: configuration.tokenEndpointURL,
            strategy: strategy, clientAuthenticationMethod: configuration.clientAuthenticationMethod, dpop: dpop,
            transport: self.transport, minTokenTtl: configuration.minTokenTtl, claimsName: claimsName)
    }
}
