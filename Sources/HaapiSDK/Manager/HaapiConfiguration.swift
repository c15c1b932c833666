import Foundation
import HaapiDriver
import OAuthCore
#if canImport(Darwin)
import OAuthTransportURLSession
#else
import OAuthTransportNIO
#endif

/// Extra header fields to send with every HAAPI request (the seeds' `HttpHeadersProvider`).
public typealias HttpHeadersProvider = @Sendable () -> [String: String]

/// The authorization request's parameters, asked for at each `start` (the seeds' `OAuthAuthorizationParametersProvider`).
public typealias OAuthAuthorizationParametersProvider = @Sendable () -> OAuthAuthorizationParameters

/// The parameters of the authorization request that starts a flow (the seeds' `OAuthAuthorizationParameters`).
public struct OAuthAuthorizationParameters: Sendable, Hashable {
    /// `scope`, joined with spaces.
    public var scopes: [String]
    /// `state`.
    public var state: String?
    /// `nonce` (OpenID Connect).
    public var nonce: String?
    /// `acr_values`, joined with spaces.
    public var acrValues: [String]
    /// `prompt`.
    public var prompt: String?
    /// `ui_locales`.
    public var uiLocales: [String]
    /// Any other parameters.
    public var extraRequestParameters: [String: String]

    /// Makes parameters.
    public init(
        scopes: [String] = [], state: String? = nil, nonce: String? = nil, acrValues: [String] = [], prompt: String? = nil,
        uiLocales: [String] = [], extraRequestParameters: [String: String] = [:]
    ) {
        self.scopes = scopes
        self.state = state
        self.nonce = nonce
        self.acrValues = acrValues
        self.prompt = prompt
        self.uiLocales = uiLocales
        self.extraRequestParameters = extraRequestParameters
    }
}

/// How the app's client reaches the server (the seeds' `HaapiConfiguration`).
public struct HaapiConfiguration: Sendable {
    /// A name for this configuration (one HAAPI token manager per name).
    public var name: String
    /// The client id.
    public var clientId: String
    /// The server's base URL: relative `href`s resolve against it.
    public var baseURL: URL { didSet { baseURL = baseURL.absoluteURL } }
    /// The token endpoint.
    public var tokenEndpointURL: URL { didSet { tokenEndpointURL = tokenEndpointURL.absoluteURL } }
    /// The authorization endpoint.
    public var authorizationEndpointURL: URL { didSet { authorizationEndpointURL = authorizationEndpointURL.absoluteURL } }
    /// The app's redirect URI (sent as `redirect_uri`).
    public var appRedirect: String
    /// Extra header fields for every HAAPI request.
    public var httpHeadersProvider: HttpHeadersProvider?
    /// The authorization request's parameters.
    public var authorizationParametersProvider: OAuthAuthorizationParametersProvider?
    /// Whether redirection steps are followed without asking the app (default `true`).
    public var isAutoRedirect: Bool
    /// The revocation endpoint (RFC 7009), if any.
    public var revocationEndpointURL: URL? { didSet { revocationEndpointURL = revocationEndpointURL?.absoluteURL } }
    /// The shortest lifetime a cached HAAPI access token may have left to be reused, in seconds (default 120).
    public var minTokenTtl: TimeInterval
    /// Whether tokens are bound to the flow's DPoP key (default: bound, P-256).
    public var tokenBoundConfiguration: any TokenBoundConfiguration
    /// How the client authenticates when it does not attest (default: none).
    public var clientAuthenticationMethod: any ClientAuthenticationMethod
    /// Receives every token-endpoint response raw (headers, body).
    public var tokenEndpointResponseListener: (any OAuthTokenManager.TokenEndpointResponseListener)?
    /// The device context a risk-assessment service (BankID's) asks for, collected when an
    /// `applicationBundle` is given.
    public var riskAssessmentConfiguration: RiskAssessmentConfiguration?
    /// Whether the authorization request carries a PKCE challenge (default `false`: HAAPI clients
    /// are protected by attestation and DPoP, PKCE is optional).
    public var usesPKCE: Bool
    /// The longest one HTTP exchange may take (default 30 s).
    public var timeout: Duration

    /// Makes a configuration; the parameters follow the seeds' (and Curity's) order.
    ///
    /// - Parameters:
    ///   - applicationBundle: the app's bundle, for risk-assessment services such as BankID's:
    ///     its identifier and the device's system and model are collected into
    ///     ``riskAssessmentConfiguration``.
    public init(
        name: String, clientId: String, baseURL: URL, tokenEndpointURL: URL, authorizationEndpointURL: URL,
        appRedirect: String, httpHeadersProvider: HttpHeadersProvider? = nil,
        authorizationParametersProvider: OAuthAuthorizationParametersProvider? = nil, isAutoRedirect: Bool = true,
        revocationEndpointURL: URL? = nil, minTokenTtl: TimeInterval = 120,
        tokenBoundConfiguration: any TokenBoundConfiguration = BoundedTokenConfiguration(),
        tokenEndpointResponseListener: (any OAuthTokenManager.TokenEndpointResponseListener)? = nil,
        clientAuthenticationMethod: any ClientAuthenticationMethod = ClientAuthenticationMethodNone(),
        applicationBundle: Bundle? = nil, usesPKCE: Bool = false, timeout: Duration = .seconds(30)
    ) {
        self.tokenEndpointResponseListener = tokenEndpointResponseListener
        self.riskAssessmentConfiguration = applicationBundle.map(RiskAssessmentConfiguration.init(bundle:))
        self.name = name
        self.clientId = clientId
        // `URL(string: "/oauth/token", relativeTo: baseURL)`, as the seeds write it, is kept absolute.
        self.baseURL = baseURL.absoluteURL
        self.tokenEndpointURL = tokenEndpointURL.absoluteURL
        self.authorizationEndpointURL = authorizationEndpointURL.absoluteURL
        self.appRedirect = appRedirect
        self.httpHeadersProvider = httpHeadersProvider
        self.authorizationParametersProvider = authorizationParametersProvider
        self.isAutoRedirect = isAutoRedirect
        self.revocationEndpointURL = revocationEndpointURL?.absoluteURL
        self.minTokenTtl = minTokenTtl
        self.tokenBoundConfiguration = tokenBoundConfiguration
        self.clientAuthenticationMethod = clientAuthenticationMethod
        self.usesPKCE = usesPKCE
        self.timeout = timeout
    }

    /// `href` resolved against ``baseURL``.
    func resolve(_ href: String) -> URL? {
        URL(string: href, relativeTo: baseURL)?.absoluteURL
    }

    /// Whether `url` is on the configured server (the base URL's or the authorization
    /// endpoint's origin: scheme, host and port): only there do HAAPI requests, with the HAAPI
    /// token, the `Session-Id` and a DPoP proof, go.
    func isServerOrigin(_ url: URL) -> Bool {
        [baseURL, authorizationEndpointURL].contains { Self.origin(of: $0) == Self.origin(of: url) }
    }

    static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        return "\(scheme)://\(host):\(port)"
    }
}

/// The device context risk-assessment services ask for (BankID's relying-party guidelines,
/// version 6): the operating system, its version, the device model and the app's identifier
/// (the seeds' `applicationBundle`, Curity's `RiskAssessmentConfiguration`).
///
/// Curity has not published how its server receives these fields, so the SDK collects them
/// and keeps them here for the app and for a future transport; it does not send them yet.
public struct RiskAssessmentConfiguration: Sendable, Hashable {
    /// `iOS`, `macOS`, `Linux`, ...
    public var operatingSystemName: String
    /// The system's version, such as `17.4.1`.
    public var operatingSystemVersion: String
    /// The device's model identifier, such as `iPhone15,2` (the machine name where there is none).
    public var deviceModelName: String
    /// The app's bundle identifier.
    public var applicationIdentifier: String

    /// Makes a configuration from known values.
    public init(operatingSystemName: String, operatingSystemVersion: String, deviceModelName: String, applicationIdentifier: String) {
        self.operatingSystemName = operatingSystemName
        self.operatingSystemVersion = operatingSystemVersion
        self.deviceModelName = deviceModelName
        self.applicationIdentifier = applicationIdentifier
    }

    /// Collects the context of this device and of the app in `bundle`.
    public init(bundle: Bundle) {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        var system = utsname()
        uname(&system)
        let machine = withUnsafeBytes(of: &system.machine) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        #if os(iOS)
        let name = "iOS"
        #elseif os(macOS)
        let name = "macOS"
        #elseif os(Linux)
        let name = "Linux"
        #else
        let name = "unknown"
        #endif
        self.init(
            operatingSystemName: name,
            operatingSystemVersion: "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)",
            deviceModelName: machine,
            applicationIdentifier: bundle.bundleIdentifier ?? ProcessInfo.processInfo.processName)
    }
}

extension HaapiConfiguration {
    /// The platform's transport for this configuration, built once for every part of the SDK:
    /// its ``timeout`` and its client authentication method's TLS settings (mTLS, trust roots).
    /// URLSession on Apple platforms; elsewhere AsyncHTTPClient, which applies every TLS setting
    /// (FoundationNetworking's URLSession applies none) and does not load libcurl.
    /// - Throws: when those TLS settings are unusable.
    func defaultTransport() throws -> any HTTPTransport {
        let settings = TransportConfiguration(timeout: timeout, tls: clientAuthenticationMethod.tlsOptions ?? TLSOptions())
        #if canImport(Darwin)
        return try URLSessionTransport(configuration: settings)
        #else
        return try AsyncHTTPClientTransport(configuration: settings)
        #endif
    }
}
