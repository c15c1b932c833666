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

/// The parameters of the authorization request that starts a flow (Curity's `OAuthAuthorizationParameters`).
public final class OAuthAuthorizationParameters: NSObject, Sendable {
    /// `scope`, joined with spaces.
    public let scopes: [String]
    /// `state`.
    public let state: String?
    /// `nonce` (OpenID Connect).
    public let nonce: String?
    /// `acr_values`, joined with spaces.
    public let acrValues: [String]
    /// `prompt`.
    public let prompt: String?
    /// `ui_locales`.
    public let uiLocales: [String]
    /// Any other parameters.
    public let extraRequestParameters: [String: String]

    /// Makes parameters: Curity's, then the package's `state`, `prompt` and `uiLocales`.
    public init(
        scopes: [String] = [], nonce: String? = nil, acrValues: [String] = [], extraRequestParameters: [String: String] = [:],
        state: String? = nil, prompt: String? = nil, uiLocales: [String] = []
    ) {
        (self.scopes, self.nonce, self.acrValues, self.extraRequestParameters) = (scopes, nonce, acrValues, extraRequestParameters)
        (self.state, self.prompt, self.uiLocales) = (state, prompt, uiLocales)
    }

    /// The same parameters.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? OAuthAuthorizationParameters else { return false }
        return (scopes, state, nonce, acrValues, prompt, uiLocales) == (
            other.scopes, other.state, other.nonce, other.acrValues, other.prompt, other.uiLocales
        )
            && extraRequestParameters == other.extraRequestParameters
    }

    /// Hashes the parameters.
    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(scopes)
        hasher.combine(state)
        hasher.combine(nonce)
        hasher.combine(acrValues)
        hasher.combine(prompt)
        hasher.combine(uiLocales)
        hasher.combine(extraRequestParameters)
        return hasher.finalize()
    }
}

/// What ``HaapiManager`` needs of a configuration (Curity's `HaapiConfigurable`);
/// ``HaapiConfiguration`` is the one the package provides.
public protocol HaapiConfigurable: Sendable {
    /// A name for this configuration (one HAAPI token manager per name).
    var name: String { get }
    /// The client id.
    var clientId: String { get }
    /// The server's base URL: relative `href`s resolve against it.
    var baseURL: URL { get }
    /// The token endpoint.
    var tokenEndpointURL: URL { get }
    /// The authorization endpoint.
    var authorizationEndpointURL: URL { get }
    /// The app's redirect URI (sent as `redirect_uri`).
    var appRedirect: String { get }
    #if canImport(Darwin)
        /// The session whose configuration HAAPI and token requests are made with (Apple platforms).
        var urlSession: URLSession { get }
    #endif
    /// Whether redirection steps are followed without asking the app.
    var isAutoRedirect: Bool { get }
    /// Extra header fields for every HAAPI request.
    var httpHeadersProvider: HttpHeadersProvider? { get }
    /// The authorization request's parameters.
    var authorizationParametersProvider: OAuthAuthorizationParametersProvider? { get }
    /// The shortest lifetime a cached HAAPI access token may have left to be reused, in seconds.
    var minTokenTtl: TimeInterval { get }
    /// Whether the client attests, and how often attestation is retried.
    var attestationConfiguration: AttestationConfiguration { get }
    /// Whether tokens are bound to the flow's DPoP key.
    var tokenBoundConfiguration: any TokenBoundConfiguration { get }
    /// How the client authenticates when it does not attest.
    var clientAuthenticationMethod: any ClientAuthenticationMethod { get }
    /// The device context risk-assessment services ask for.
    var riskAssessmentConfiguration: RiskAssessmentConfiguration? { get }
}

/// What ``OAuthTokenManager`` needs of a configuration (Curity's `OAuthTokenConfigurable`);
/// ``HaapiConfiguration`` is the one the package provides.
public protocol OAuthTokenConfigurable: Sendable {
    /// The client id.
    var clientId: String { get }
    /// The token endpoint.
    var tokenEndpointURL: URL { get }
    /// The app's redirect URI, sent again with the code exchange.
    var appRedirect: String { get }
    #if canImport(Darwin)
        /// The session whose configuration token requests are made with (Apple platforms).
        var urlSession: URLSession { get }
    #endif
    /// The revocation endpoint (RFC 7009), if any.
    var revocationEndpointURL: URL? { get }
    /// Whether tokens are bound to the flow's DPoP key.
    var tokenBoundConfiguration: any TokenBoundConfiguration { get }
    /// Receives every token-endpoint response raw (headers, body).
    var tokenEndpointResponseListener: (any OAuthTokenManager.TokenEndpointResponseListener)? { get }
    /// How the client authenticates at the token endpoint.
    var clientAuthenticationMethod: any ClientAuthenticationMethod { get }
}

/// How the app's client reaches the server (Curity's `HaapiConfiguration`), for ``HaapiManager``,
/// ``OAuthTokenManager`` and ``HaapiAccessorBuilder``.
///
/// A value: a copy changed (as the UI kit's builder changes it) does not change the original.
public struct HaapiConfiguration: HaapiConfigurable, OAuthTokenConfigurable {
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
    #if canImport(Darwin)
        /// The session whose configuration (timeouts, proxies, extra headers, protocol classes)
        /// HAAPI and token requests are made with. The requests go through a session of the SDK's
        /// own made from a copy of it, whose delegate refuses redirects and applies the client
        /// authentication method's TLS settings, and which keeps no cache, cookies or credentials.
        public var urlSession: URLSession {
            get { chosenURLSession ?? Self.defaultURLSession }
            set { chosenURLSession = newValue }
        }
        /// The session given, if any: a configuration made without one reads a shared default
        /// rather than making a session that Curity's initializer would replace at once.
        private var chosenURLSession: URLSession?
        private static let defaultURLSession = URLSession(configuration: .haapi)
    #endif
    /// The revocation endpoint (RFC 7009), if any.
    public var revocationEndpointURL: URL? { didSet { revocationEndpointURL = revocationEndpointURL?.absoluteURL } }
    /// The shortest lifetime a cached HAAPI access token may have left to be reused, in seconds (default 120).
    public var minTokenTtl: TimeInterval
    /// Whether the client attests, and how often attestation is retried (default: it attests, 3 retries).
    public var attestationConfiguration: AttestationConfiguration
    /// Whether tokens are bound to the flow's DPoP key (default: bound, P-256).
    public var tokenBoundConfiguration: any TokenBoundConfiguration
    /// Receives every token-endpoint response raw (headers, body).
    public var tokenEndpointResponseListener: (any OAuthTokenManager.TokenEndpointResponseListener)?
    /// How the client authenticates when it does not attest (default: none).
    public var clientAuthenticationMethod: any ClientAuthenticationMethod
    /// The device context a risk-assessment service (BankID's) asks for.
    public var riskAssessmentConfiguration: RiskAssessmentConfiguration?
    /// Whether the authorization request carries a PKCE challenge (default `false`: HAAPI clients
    /// are protected by attestation and DPoP, PKCE is optional).
    public var usesPKCE: Bool
    /// The longest one HTTP exchange may take, in seconds (default 30).
    public var timeout: TimeInterval

    #if canImport(Darwin)
        /// Makes a configuration, with Curity's parameters in Curity's order and the package's after them.
        ///
        /// - Parameters:
        ///   - name: a name for this configuration (one HAAPI token manager per name).
        ///   - clientId: the client id.
        ///   - baseURL: the server's base URL: relative `href`s resolve against it.
        ///   - tokenEndpointURL: the token endpoint (a URL relative to `baseURL` is made absolute).
        ///   - authorizationEndpointURL: the authorization endpoint.
        ///   - appRedirect: the app's redirect URI (sent as `redirect_uri`).
        ///   - httpHeadersProvider: extra header fields for every HAAPI request.
        ///   - authorizationParametersProvider: the authorization request's parameters.
        ///   - isAutoRedirect: whether redirection steps are followed without asking the app.
        ///   - urlSession: the session whose configuration requests are made with (see ``urlSession``).
        ///   - revocationEndpointURL: the revocation endpoint (RFC 7009), if any.
        ///   - minTokenTtl: the shortest lifetime a cached HAAPI access token may have left to be
        ///     reused, in seconds.
        ///   - attestationConfiguration: whether the client attests, and how often it retries.
        ///   - tokenBoundConfiguration: whether tokens are bound to the flow's DPoP key.
        ///   - tokenEndpointResponseListener: receives every token-endpoint response raw.
        ///   - clientAuthenticationMethod: how the client authenticates when it does not attest.
        ///   - riskAssessmentConfiguration: the device context for risk-assessment services.
        ///   - applicationBundle: the app's bundle: when given (and no `riskAssessmentConfiguration`
        ///     is), the device's context is collected from it into ``riskAssessmentConfiguration``.
        ///   - usesPKCE: whether the authorization request carries a PKCE challenge.
        ///   - timeout: the longest one HTTP exchange may take, in seconds.
        public init(
            name: String, clientId: String, baseURL: URL, tokenEndpointURL: URL, authorizationEndpointURL: URL,
            appRedirect: String, httpHeadersProvider: HttpHeadersProvider? = nil,
            authorizationParametersProvider: OAuthAuthorizationParametersProvider? = nil, isAutoRedirect: Bool = true,
            urlSession: URLSession = URLSession(configuration: .haapi), revocationEndpointURL: URL? = nil, minTokenTtl: TimeInterval = 120,
            attestationConfiguration: AttestationConfiguration = AttestationConfiguration(),
            tokenBoundConfiguration: any TokenBoundConfiguration = BoundedTokenConfiguration(),
            tokenEndpointResponseListener: (any OAuthTokenManager.TokenEndpointResponseListener)? = nil,
            clientAuthenticationMethod: any ClientAuthenticationMethod = ClientAuthenticationMethodNone(),
            riskAssessmentConfiguration: RiskAssessmentConfiguration? = nil,
            applicationBundle: Bundle? = nil, usesPKCE: Bool = false, timeout: TimeInterval = 30
        ) {
            self.init(
                name: name, clientId: clientId, baseURL: baseURL, tokenEndpointURL: tokenEndpointURL,
                authorizationEndpointURL: authorizationEndpointURL, appRedirect: appRedirect, httpHeadersProvider: httpHeadersProvider,
                authorizationParametersProvider: authorizationParametersProvider, isAutoRedirect: isAutoRedirect,
                revocationEndpointURL: revocationEndpointURL, minTokenTtl: minTokenTtl, attestationConfiguration: attestationConfiguration,
                tokenBoundConfiguration: tokenBoundConfiguration, tokenEndpointResponseListener: tokenEndpointResponseListener,
                clientAuthenticationMethod: clientAuthenticationMethod, riskAssessmentConfiguration: riskAssessmentConfiguration,
                applicationBundle: applicationBundle, usesPKCE: usesPKCE, timeout: timeout)
            self.urlSession = urlSession
        }
    #endif

    /// Makes a configuration, with Curity's parameters in Curity's order and the package's after
    /// them, and the default `urlSession` on Apple platforms (where the initializer that takes
    /// one is preferred).
    ///
    /// - Parameters:
    ///   - name: a name for this configuration (one HAAPI token manager per name).
    ///   - clientId: the client id.
    ///   - baseURL: the server's base URL: relative `href`s resolve against it.
    ///   - tokenEndpointURL: the token endpoint (a URL relative to `baseURL` is made absolute).
    ///   - authorizationEndpointURL: the authorization endpoint.
    ///   - appRedirect: the app's redirect URI (sent as `redirect_uri`).
    ///   - httpHeadersProvider: extra header fields for every HAAPI request.
    ///   - authorizationParametersProvider: the authorization request's parameters.
    ///   - isAutoRedirect: whether redirection steps are followed without asking the app.
    ///   - revocationEndpointURL: the revocation endpoint (RFC 7009), if any.
    ///   - minTokenTtl: the shortest lifetime a cached HAAPI access token may have left to be
    ///     reused, in seconds.
    ///   - attestationConfiguration: whether the client attests, and how often it retries.
    ///   - tokenBoundConfiguration: whether tokens are bound to the flow's DPoP key.
    ///   - tokenEndpointResponseListener: receives every token-endpoint response raw.
    ///   - clientAuthenticationMethod: how the client authenticates when it does not attest.
    ///   - riskAssessmentConfiguration: the device context for risk-assessment services.
    ///   - applicationBundle: the app's bundle: when given (and no `riskAssessmentConfiguration`
    ///     is), the device's context is collected from it into ``riskAssessmentConfiguration``.
    ///   - usesPKCE: whether the authorization request carries a PKCE challenge.
    ///   - timeout: the longest one HTTP exchange may take, in seconds.
    @_disfavoredOverload
    public init(
        name: String, clientId: String, baseURL: URL, tokenEndpointURL: URL, authorizationEndpointURL: URL,
        appRedirect: String, httpHeadersProvider: HttpHeadersProvider? = nil,
        authorizationParametersProvider: OAuthAuthorizationParametersProvider? = nil, isAutoRedirect: Bool = true,
        revocationEndpointURL: URL? = nil, minTokenTtl: TimeInterval = 120,
        attestationConfiguration: AttestationConfiguration = AttestationConfiguration(),
        tokenBoundConfiguration: any TokenBoundConfiguration = BoundedTokenConfiguration(),
        tokenEndpointResponseListener: (any OAuthTokenManager.TokenEndpointResponseListener)? = nil,
        clientAuthenticationMethod: any ClientAuthenticationMethod = ClientAuthenticationMethodNone(),
        riskAssessmentConfiguration: RiskAssessmentConfiguration? = nil,
        applicationBundle: Bundle? = nil, usesPKCE: Bool = false, timeout: TimeInterval = 30
    ) {
        (self.name, self.clientId, self.appRedirect) = (name, clientId, appRedirect)
        // `URL(string: "/oauth/token", relativeTo: baseURL)`, as the seeds write it, is kept absolute.
        (self.baseURL, self.tokenEndpointURL) = (baseURL.absoluteURL, tokenEndpointURL.absoluteURL)
        (self.authorizationEndpointURL, self.revocationEndpointURL) = (
            authorizationEndpointURL.absoluteURL, revocationEndpointURL?.absoluteURL
        )
        (self.httpHeadersProvider, self.authorizationParametersProvider) = (httpHeadersProvider, authorizationParametersProvider)
        (self.isAutoRedirect, self.minTokenTtl, self.attestationConfiguration) = (isAutoRedirect, minTokenTtl, attestationConfiguration)
        (self.tokenBoundConfiguration, self.tokenEndpointResponseListener) = (tokenBoundConfiguration, tokenEndpointResponseListener)
        self.clientAuthenticationMethod = clientAuthenticationMethod
        self.riskAssessmentConfiguration = riskAssessmentConfiguration ?? applicationBundle.map(RiskAssessmentConfiguration.init(bundle:))
        (self.usesPKCE, self.timeout) = (usesPKCE, timeout)
    }

    /// The configuration an app's own ``HaapiConfigurable`` describes: the value itself when it
    /// is a `HaapiConfiguration`, else one with its members and the package's defaults.
    public init(haapiConfigurable configurable: any HaapiConfigurable) {
        self =
            configurable as? HaapiConfiguration
            ?? HaapiConfiguration(
                name: configurable.name, clientId: configurable.clientId, baseURL: configurable.baseURL,
                tokenEndpointURL: configurable.tokenEndpointURL, authorizationEndpointURL: configurable.authorizationEndpointURL,
                appRedirect: configurable.appRedirect, httpHeadersProvider: configurable.httpHeadersProvider,
                authorizationParametersProvider: configurable.authorizationParametersProvider, isAutoRedirect: configurable.isAutoRedirect,
                minTokenTtl: configurable.minTokenTtl, attestationConfiguration: configurable.attestationConfiguration,
                tokenBoundConfiguration: configurable.tokenBoundConfiguration,
                clientAuthenticationMethod: configurable.clientAuthenticationMethod,
                riskAssessmentConfiguration: configurable.riskAssessmentConfiguration)
        #if canImport(Darwin)
            urlSession = configurable.urlSession
        #endif
    }

    /// The configuration an app's own ``OAuthTokenConfigurable`` describes: the value itself when
    /// it is a `HaapiConfiguration`, else one with its members, named after its client id, whose
    /// base and authorization URLs are the token endpoint (an OAuth-only configuration starts no flow).
    public init(oauthTokenConfigurable configurable: any OAuthTokenConfigurable) {
        self =
            configurable as? HaapiConfiguration
            ?? HaapiConfiguration(
                name: configurable.clientId, clientId: configurable.clientId, baseURL: configurable.tokenEndpointURL,
                tokenEndpointURL: configurable.tokenEndpointURL, authorizationEndpointURL: configurable.tokenEndpointURL,
                appRedirect: configurable.appRedirect, revocationEndpointURL: configurable.revocationEndpointURL,
                tokenBoundConfiguration: configurable.tokenBoundConfiguration,
                tokenEndpointResponseListener: configurable.tokenEndpointResponseListener,
                clientAuthenticationMethod: configurable.clientAuthenticationMethod)
        #if canImport(Darwin)
            urlSession = configurable.urlSession
        #endif
    }

    /// `href` resolved against ``baseURL``.
    func resolve(_ href: String) -> URL? {
        URL(string: href, relativeTo: baseURL)?.absoluteURL
    }

    /// Whether `url` is on the configured server (the base URL's or the authorization
    /// endpoint's origin: scheme, host and port): only there do HAAPI requests, with the HAAPI
    /// token, the `Session-Id` and a DPoP proof, go.
    package func isServerOrigin(_ url: URL) -> Bool {
        guard let origin = url.origin else { return false }
        return [baseURL, authorizationEndpointURL].contains { $0.origin == origin }
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
            return try HaapiTokenManagerBuilder.platformTransport(settings, sessionConfiguration: urlSession.configuration)
        #else
            return try HaapiTokenManagerBuilder.platformTransport(settings)
        #endif
    }
}
