import Foundation
import HaapiDriver
import OAuthCore

/// What ``HaapiAccessorBuilder`` builds (Curity's `HaapiAccessorOption`).
/// Its raw values are Curity's numbers.
public enum HaapiAccessorOption: Int, Sendable, Hashable {
    /// HAAPI flows and OAuth tokens: an ``HaapiAccessor``.
    case all
    /// OAuth token operations only (refresh, revoke), for example in an app extension: an ``OAuthAccessor``.
    case oauth
}

/// Anything ``HaapiAccessorBuilder`` can build (Curity's `HaapiManagerAccessor`).
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
    /// Closes the managers and frees the configuration's name (synchronous, as Curity's is).
    func close()
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

    func close() {
        haapiManager.close()
        haapiTokenManager.close()
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
    /// Where tokens and bound-token keys are kept, if not ``/HaapiDriver/DefaultStorage`` (DCR clients go to
    /// the DCR configuration's storage).
    public var storage: (any Storage)?
    /// How many more times a failed attestation is tried, if not the configuration's
    /// ``/HaapiDriver/AttestationConfiguration/attestationMaxRetries``.
    public var attestationValidationRetryCount: Int?
    /// The name Curity's SDK keeps its App Attest key under. This SDK attests a new key for each
    /// client attestation token and keeps none (it makes no App Attest assertions), so the name
    /// is kept here and logged, and changes nothing.
    public var attestationValidationKeyName: String?

    /// Options with the defaults.
    public init() {}
}

/// Not API: a builder of what an accessor is built with, its ``HaapiConfiguration`` and
/// ``HaapiAccessorOptions``: ``HaapiAccessorBuilder``, and the UI kit's configuration builder,
/// which builds an accessor too. The setters both have are written once, below. Public only
/// because they are.
public protocol _HaapiAccessorSettingsBuilder: AnyObject {
    /// Makes one change of the settings, under the builder's lock.
    func _change(_ change: (inout HaapiConfiguration, inout HaapiAccessorOptions) -> Void)
}

extension _HaapiAccessorSettingsBuilder {
    /// Sets the client authentication method (client credentials and DCR).
    @discardableResult public func setClientAuthenticationMethod(method: any ClientAuthenticationMethod) -> Self {
        _change { configuration, _ in configuration.clientAuthenticationMethod = method }
        return self
    }

    /// Enables the DCR fallback for devices that cannot attest.
    @discardableResult public func setDCRConfiguration(configuration: DCRConfiguration) -> Self {
        setOption { $0.dcrConfiguration = configuration }
    }

    /// Sets the attestation provider (default: ``/HaapiSDK/HaapiAccessorBuilder/platformAttestationProvider``).
    @discardableResult public func setAttestationProvider(_ provider: any AttestationProvider) -> Self {
        setOption { $0.attestationProvider = provider }
    }

    /// Forces an access strategy.
    @discardableResult public func setAccessStrategy(_ strategy: HaapiAccessStrategy) -> Self {
        setOption { $0.accessStrategy = strategy }
    }

    /// Sets the network transport (default: the platform's, with the configuration's timeout and TLS settings).
    @discardableResult public func setTransport(_ transport: any HTTPTransport) -> Self {
        setOption { $0.transport = transport }
    }

    /// Sets where tokens and bound-token keys are kept (default: ``/HaapiDriver/DefaultStorage``; DCR clients go to the DCR configuration's storage).
    @discardableResult public func setStorage(_ storage: any Storage) -> Self {
        setOption { $0.storage = storage }
    }

    /// One change of the accessor options.
    func setOption(_ change: (inout HaapiAccessorOptions) -> Void) -> Self {
        _change { _, options in change(&options) }
        return self
    }
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
public final class HaapiAccessorBuilder: NSObject, _HaapiAccessorSettingsBuilder, Sendable {
    private let settings: LockedValue<(configuration: HaapiConfiguration, options: HaapiAccessorOptions)>

    /// A builder for `haapiConfiguration`, with `options` (default: none set).
    public init(haapiConfiguration: HaapiConfiguration, options: HaapiAccessorOptions = HaapiAccessorOptions()) {
        settings = LockedValue((haapiConfiguration, options))
    }

    /// Makes one change of the settings, under the lock.
    public func _change(_ change: (inout HaapiConfiguration, inout HaapiAccessorOptions) -> Void) {
        settings.withLock { change(&$0.configuration, &$0.options) }
    }

    /// Chooses what to build: ``HaapiAccessorOption/all`` (the default) or ``HaapiAccessorOption/oauth``.
    @discardableResult public func setHaapiAccessorOption(option: HaapiAccessorOption) -> Self {
        setOption { $0.option = option }
    }

    /// How many more times a failed attestation (the device's or the server's refusal) is tried
    /// before the DCR fallback (default: the configuration's ``/HaapiDriver/AttestationConfiguration/attestationMaxRetries``).
    @discardableResult public func setAttestationValidationRetryCount(maxRetries: Int) -> Self {
        setOption { $0.attestationValidationRetryCount = max(0, maxRetries) }
    }

    /// Curity's name for its App Attest key; see ``HaapiAccessorOptions/attestationValidationKeyName``.
    @discardableResult public func setAttestationValidationKeyName(keyName: String) -> Self {
        setOption { $0.attestationValidationKeyName = keyName }
    }

    /// The attestation provider of builders that are not given one (the driver's
    /// ``/HaapiDriver/HaapiTokenManagerBuilder/platformAttestationProvider``): App Attest on Apple devices;
    /// elsewhere none unless the app sets its platform's, once, at start-up.
    public static var platformAttestationProvider: any AttestationProvider {
        get { HaapiTokenManagerBuilder.platformAttestationProvider }
        set { HaapiTokenManagerBuilder.platformAttestationProvider = newValue }
    }

    /// ``/HaapiDriver/HaapiTokenManagerBuilder/withPlatformAttestationProvider(_:_:)``: `provider` for `body`
    /// and the tasks it starts, and nowhere else.
    public nonisolated(nonsending) static func withPlatformAttestationProvider<T>(
        _ provider: any AttestationProvider, _ body: () async throws -> T
    ) async rethrows -> T {
        try await HaapiTokenManagerBuilder.withPlatformAttestationProvider(provider, body)
    }

    /// The strategy the builder settles on.
    func resolvedStrategy() throws -> HaapiAccessStrategy {
        let (configuration, options) = settings.withLock { $0 }
        return try Self.strategy(configuration: configuration, options: options)
    }

    private static func strategy(configuration: HaapiConfiguration, options: HaapiAccessorOptions) throws -> HaapiAccessStrategy {
        if let strategy = options.accessStrategy { return strategy }
        let provider =
            configuration.attestationConfiguration.useAttestation ? options.attestationProvider ?? Self.platformAttestationProvider : nil
        return try HaapiAccessStrategy.resolve(
            provider: provider, dcrFallback: options.dcrConfiguration, clientAuthenticationMethod: configuration.clientAuthenticationMethod)
    }

    /// Builds an ``HaapiAccessor``: HAAPI flows and OAuth tokens (Curity's UI kit's `buildForHaapi`).
    ///
    /// - Parameter shouldClearExistingDCRClient: whether a DCR client kept from an earlier run is
    ///   dropped and a new one registered (with the DCR fallback).
    /// - Throws: ``/HaapiDriver/HaapiError`` for an unusable configuration, an open manager of the same name,
    ///   or a builder set to ``HaapiAccessorOption/oauth``.
    public func buildForHaapi(shouldClearExistingDCRClient: Bool = false) async throws -> any HaapiAccessor {
        let accessor = try assemble(shouldClearExistingDCRClient: shouldClearExistingDCRClient)
        guard let haapi = accessor as? any HaapiAccessor else {
            accessor.haapiTokenManager.close()
            throw HaapiError.invalidConfiguration(
                reason: "an HaapiAccessor was asked of a builder set to .oauth, which makes an OAuthAccessor")
        }
        return haapi
    }

    /// Builds an ``OAuthAccessor``: OAuth token operations only, whatever the option (Curity's
    /// UI kit's `buildForOAuth`), for example in an app extension.
    /// - Throws: ``/HaapiDriver/HaapiError`` for an unusable configuration.
    public func buildForOAuth() async throws -> any OAuthAccessor {
        try assemble(option: .oauth)
    }

    /// Builds the accessor the variable's type asks for, as Curity's generic `build` is called:
    /// this one when it is an ``HaapiAccessor``.
    ///
    /// ```swift
    /// let haapiAccessor: HaapiAccessor = try await builder.build()
    /// ```
    ///
    /// Curity's `build<T: HaapiManagerAccessor>` relies on its protocols being `@objc`, whose
    /// existentials conform to themselves; here two overloads take its place. This one is
    /// disfavoured: where either fits (an `OAuthAccessor` is asked for), the other is chosen.
    @_disfavoredOverload
    public func build(shouldClearExistingDCRClient: Bool = false) async throws -> any HaapiAccessor {
        try await buildForHaapi(shouldClearExistingDCRClient: shouldClearExistingDCRClient)
    }

    /// Builds the accessor the variable's type asks for: this one when it is an ``OAuthAccessor``;
    /// what the option says (``HaapiAccessorOption/all`` makes one that is an ``HaapiAccessor`` too).
    ///
    /// ```swift
    /// let oauthAccessor: OAuthAccessor = try await builder.setHaapiAccessorOption(option: .oauth).build()
    /// ```
    public func build(shouldClearExistingDCRClient: Bool = false) async throws -> any OAuthAccessor {
        try assemble(shouldClearExistingDCRClient: shouldClearExistingDCRClient)
    }

    /// Builds the accessor of the concrete type `T` (Curity's generic `build`, for a type rather
    /// than a protocol: `let a: HaapiAccessor` takes the overloads above).
    /// - Throws: the errors of the other builds; ``/HaapiDriver/HaapiError/illegalState(message:)`` when what
    ///   the option builds is not a `T`.
    public func build<T: HaapiManagerAccessor>(shouldClearExistingDCRClient: Bool = false) async throws -> T {
        let built: any OAuthAccessor = try assemble(shouldClearExistingDCRClient: shouldClearExistingDCRClient)
        guard let accessor = built as? T else { throw HaapiError.illegalState(message: "the accessor built is not a \(T.self)") }
        return accessor
    }

    /// The generic build with a completion handler; called on a task of its own.
    @available(*, deprecated, message: "Use the async build")
    public func build<T: HaapiManagerAccessor>(
        shouldClearExistingDCRClient: Bool = false, completionHandler: @escaping @Sendable (Result<T, HaapiError>) -> Void
    ) {
        Task {
            completionHandler(
                await Self.result { () async throws -> T in try await self.build(shouldClearExistingDCRClient: shouldClearExistingDCRClient)
                })
        }
    }

    /// ``build(shouldClearExistingDCRClient:)->HaapiAccessor`` of an ``HaapiAccessor`` with a completion handler,
    /// as Curity's SDK 4 wrote it; called on a task of its own.
    @available(*, deprecated, message: "Use the async build")
    @_disfavoredOverload
    public func build(
        shouldClearExistingDCRClient: Bool = false, completionHandler: @escaping @Sendable (Result<any HaapiAccessor, HaapiError>) -> Void
    ) {
        Task {
            completionHandler(
                await Self.result { try await self.buildForHaapi(shouldClearExistingDCRClient: shouldClearExistingDCRClient) })
        }
    }

    /// ``build(shouldClearExistingDCRClient:)->OAuthAccessor`` of an ``OAuthAccessor`` with a completion handler.
    @available(*, deprecated, message: "Use the async build")
    public func build(
        shouldClearExistingDCRClient: Bool = false, completionHandler: @escaping @Sendable (Result<any OAuthAccessor, HaapiError>) -> Void
    ) {
        Task {
            completionHandler(
                await Self.result { try self.assemble(shouldClearExistingDCRClient: shouldClearExistingDCRClient) as any OAuthAccessor })
        }
    }

    private static func result<T>(_ body: () async throws -> T) async -> Result<T, HaapiError> {
        do {
            return .success(try await body())
        } catch let error as HaapiError {
            return .failure(error)
        } catch {
            return .failure(.illegalState(message: "\(error)"))
        }
    }

    /// Makes the managers, from a copy of the settings.
    /// - Parameter option: what to build, if not the option set.
    func assemble(option: HaapiAccessorOption? = nil, shouldClearExistingDCRClient: Bool = false) throws -> any OAuthAccessor
        & HaapiTokenManaging
    {
        var (configuration, options) = settings.withLock { $0 }
        if shouldClearExistingDCRClient { options.dcrConfiguration?.shouldClearExistingDCRClient = true }
        let option = option ?? options.option
        if let keyName = options.attestationValidationKeyName {
            HaapiLogger.debug(DriverFollowUpTag.attestation, "attestation key name \(keyName): each attestation uses a new App Attest key")
        }
        var strategy = try Self.strategy(configuration: configuration, options: options)
        if shouldClearExistingDCRClient {
            // Whichever DCR configuration the strategy holds: the fallback's, or one an app set
            // with setAccessStrategy(.dcr(...)).
            switch strategy {
            case .dcr(var dcr):
                dcr.shouldClearExistingDCRClient = true
                strategy = .dcr(dcr)
            case .attestation(let provider, var fallback?):
                fallback.shouldClearExistingDCRClient = true
                strategy = .attestation(provider, dcrFallback: fallback)
            case .attestation, .clientCredentials:
                break
            }
        }
        let parts = try AccessParts(
            configuration: configuration, strategy: strategy,
            dcrConfiguration: options.dcrConfiguration, transport: options.transport, claimsName: option == .all,
            attestationMaxRetries: options.attestationValidationRetryCount ?? configuration.attestationConfiguration.attestationMaxRetries)
        let tokenManager = parts.tokenManager
        let oauth = OAuthTokenManager(
            oauthTokenConfiguration: configuration, transport: parts.transport, storage: options.storage,
            clientAuthentication: { try await tokenManager.effectiveClient.authentication })
        // With DCR the flow belongs to the registered client, known once the first token is obtained.
        guard option == .all else { return BuiltOAuthAccessor(oAuthTokenManager: oauth, haapiTokenManager: tokenManager) }
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
        transport: (any HTTPTransport)?, claimsName: Bool = true, attestationMaxRetries: Int? = nil
    ) throws {
        if let dcrConfiguration, dcrConfiguration.clientRegistrationEndpointUrl == nil {
            throw HaapiError.invalidConfiguration(reason: "the DCR configuration's clientRegistrationEndpointUrl is nil (not a URL)")
        }
        self.transport = try transport ?? configuration.defaultTransport()
        tokenManager = try HaapiTokenManager(
            name: configuration.name, clientID: configuration.clientId, tokenEndpointURL: configuration.tokenEndpointURL,
            strategy: strategy, clientAuthenticationMethod: configuration.clientAuthenticationMethod,
            dpop: try Dpop.makeBound(configuration.tokenBoundConfiguration), transport: self.transport,
            minTokenTtl: configuration.minTokenTtl,
            attestationMaxRetries: attestationMaxRetries ?? configuration.attestationConfiguration.attestationMaxRetries,
            claimsName: claimsName)
    }
}
