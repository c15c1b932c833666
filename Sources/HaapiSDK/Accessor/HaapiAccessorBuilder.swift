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
public final class HaapiAccessorBuilder: @unchecked Sendable {
    // The setters are meant for one thread, as the seeds use them; `build()` copies what it needs.
    private var configuration: HaapiConfiguration
    private var dcrConfiguration: DCRConfiguration?
    private var option: HaapiAccessorOption = .all
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

    /// Chooses what to build: ``HaapiAccessorOption/all`` (the default) or ``HaapiAccessorOption/oauth``.
    @discardableResult public func setHaapiAccessorOption(option: HaapiAccessorOption) -> Self {
        self.option = option
        return self
    }

    /// Sets the attestation provider (default: ``platformAttestationProvider``).
    @discardableResult public func setAttestationProvider(_ provider: any AttestationProvider) -> Self {
        attestationProvider = provider
        return self
    }

    /// Forces an access strategy.
    @discardableResult public func setAccessStrategy(_ strategy: HaapiAccessStrategy) -> Self {
        self.strategy = strategy
        return self
    }

    /// Sets the network transport (default: the platform's, with the authentication method's TLS settings).
    @discardableResult public func setTransport(_ transport: any HTTPTransport) -> Self {
        self.transport = transport
        return self
    }

    /// Sets where bound-token keys are kept (default: ``DefaultStorage``; DCR clients go to the DCR configuration's storage).
    @discardableResult public func setStorage(_ storage: any Storage) -> Self {
        self.storage = storage
        return self
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
        if let strategy { return strategy }
        let provider = attestationProvider ?? Self.platformAttestationProvider
        if provider is InsecureSoftwareAttestationProvider {
            HaapiLogger.warning(DriverFollowUpTag.attestation, "attesting with InsecureSoftwareAttestationProvider: for development servers only")
        }
        if provider.isSupported { return .attestation(provider, dcrFallback: dcrConfiguration) }
        if let dcrConfiguration { return .dcr(dcrConfiguration) }
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

    /// Makes the managers.
    func assemble() throws -> any OAuthAccessor & HaapiTokenManaging {
        let configuration = self.configuration
        let parts = try AccessParts(
            configuration: configuration, strategy: try resolvedStrategy(), dcrConfiguration: dcrConfiguration, transport: transport,
            claimsName: option == .all)
        let tokenManager = parts.tokenManager
        let oauth = OAuthTokenManager(
            oauthTokenConfiguration: configuration, transport: parts.transport, storage: storage,
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
