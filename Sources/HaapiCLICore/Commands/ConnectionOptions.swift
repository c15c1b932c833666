import ArgumentParser
import Foundation
import OAuthCore
import OAuthTransportNIO
import OIDCClient

/// Where and as whom to log in: flags, or `--config FILE` (seed 002's config.json shape).
package struct ConnectionOptions: ParsableArguments {
    package init() {}

    @Option(help: "The issuer; endpoints are found by discovery (/.well-known/openid-configuration).") var issuer: String?
    @Option(help: "The server's base URL (with --token-endpoint and --authorization-endpoint instead of discovery).") var baseUrl: String?
    @Option(help: "The token endpoint.") package var tokenEndpoint: String?
    @Option(help: "The authorization endpoint.") package var authorizationEndpoint: String?
    @Option(help: "The client id.") package var clientId: String?
    @Option(
        help: ArgumentHelp(
            "The client secret (client-credentials access to the HAAPI API): `-` reads it from standard input. Prefer --client-secret-file or HAAPI_CLIENT_SECRET: a value here is visible to other users in `ps`.",
            valueName: "secret|-"))
    package var clientSecret: String?
    @Option(help: "A file holding the client secret (its first line).") var clientSecretFile: String?
    @Flag(help: "Allow http:// (not TLS) to a server that is not on this machine (tokens and secrets travel in clear).")
    var allowInsecureHttp = false
    @Option(help: "The scopes, space-separated (default: openid).") var scope: String?
    @Option(help: "The redirect URI registered for the client (default: haapi://callback; with --browser http://127.0.0.1:PORT/callback).")
    package var redirectUri: String?
    @Option(help: "With --browser: the loopback port of the redirect URI, for servers that match it exactly (default: any free port).")
    var redirectPort: Int?
    @Option(
        help:
            "With --browser: where the provider sends the browser after `haapi logout --end-session` (default: http://127.0.0.1/logged-out on any port)."
    )
    package var postLogoutRedirectUri: String?
    @Option(help: "`software`: the insecure software attestation (development server only).") var attestation: AttestationKind?
    @Flag(help: "Do not bind the tokens to a DPoP key.") package var noDpop = false
    @Option(
        help:
            "A JSON config file: issuer, clientId, redirectUri, scope (+ clientSecret, strategy, endpoints), as `haapi server --print-config --client ID` prints one."
    ) var config: String?
    @Option(
        help: ArgumentHelp(
            "An origin besides the provider's that `haapi api` may send the profile's tokens to (repeatable; kept in the profile).",
            valueName: "origin"))
    var apiOrigin: [String] = []
    @Option(
        help: ArgumentHelp(
            "A PEM file of CA certificates to trust besides the system's: a private CA, or the server's self-signed certificate (kept in the profile; HAAPI_CA_FILE and SSL_CERT_FILE are read too).",
            valueName: "file"))
    package var cacert: String?

    package var isGiven: Bool {
        [
            issuer, baseUrl, tokenEndpoint, authorizationEndpoint, clientId, clientSecret, clientSecretFile, scope, redirectUri, config,
            postLogoutRedirectUri,
        ]
        .contains { $0 != nil } || attestation != nil || cacert != nil || noDpop || redirectPort != nil || !apiOrigin.isEmpty
            || ProcessInfo.processInfo.environment["HAAPI_CLIENT_SECRET"] != nil
    }

    package func validate() throws {
        if let redirectPort, !(0...65535).contains(redirectPort) { throw ValidationError("--redirect-port must be 0 to 65535") }
        if redirectPort != nil && redirectUri != nil { throw ValidationError("give --redirect-uri or --redirect-port, not both") }
        for (name, value) in [
            ("--issuer", issuer), ("--base-url", baseUrl), ("--token-endpoint", tokenEndpoint),
            ("--authorization-endpoint", authorizationEndpoint),
        ] {
            guard let value else { continue }
            guard let url = URL(string: value), url.scheme != nil else { throw ValidationError("\(name) must be an absolute URL") }
            try Self.checkTransportSecurity(url, option: name, allowInsecureHttp: allowInsecureHttp)
        }
        if clientSecret != nil && clientSecretFile != nil {
            throw ValidationError("give --client-secret or --client-secret-file, not both")
        }
        for origin in apiOrigin { try Self.checkOrigin(origin, option: "--api-origin", allowInsecureHttp: allowInsecureHttp) }
    }

    /// Checks an origin given on the command line: an `http` or `https` URL with a host and no
    /// path, and plain `http` to another machine only when allowed.
    static func checkOrigin(_ text: String, option: String, allowInsecureHttp: Bool) throws {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased()), url.host?.isEmpty == false,
            url.path.isEmpty || url.path == "/", url.query == nil, url.user == nil
        else {
            throw ValidationError(
                "\(option) takes an origin such as https://api.example or http://127.0.0.1:8080, not \"\(PrintableText(text))\"")
        }
        try checkTransportSecurity(url, option: option, allowInsecureHttp: allowInsecureHttp)
    }

    /// `https`, or `http` to this machine; plain `http` to another host only when allowed, and then with a warning.
    static func checkTransportSecurity(_ url: URL, option: String, allowInsecureHttp: Bool) throws {
        guard url.scheme?.lowercased() == "http", !Loopback.isHost(url.host) else { return }
        guard allowInsecureHttp else {
            throw ValidationError(
                "\(option) \(url.absoluteString) is http:// to another machine: tokens and secrets would travel in clear (give --allow-insecure-http to do it anyway)"
            )
        }
        Texts.warn("\(option) is http:// to another machine: tokens and secrets travel in clear")
    }

    /// The client secret from --client-secret-file, `--client-secret -` (standard input),
    /// HAAPI_CLIENT_SECRET, or --client-secret (with a warning: `ps` shows it).
    package func secret() throws -> String? {
        if let clientSecretFile {
            let text = try InputFiles.text(clientSecretFile, "the client secret from", limit: InputFiles.Limit.small)
            return text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        }
        if clientSecret == "-" {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else { throw CLIFailure("no client secret on standard input") }
            return line
        }
        if let clientSecret {
            Texts.warn(
                "a secret given on the command line is visible to other users (ps); use --client-secret-file FILE, HAAPI_CLIENT_SECRET or --client-secret -"
            )
            return clientSecret
        }
        return ProcessInfo.processInfo.environment["HAAPI_CLIENT_SECRET"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The settings of `--config FILE`, when given.
    package func configFile() throws -> ProfileConfiguration? {
        try config.map { try ProfileConfiguration.read(configFile: $0, clientID: clientId) }
    }

    /// The settings from the flags (over `fromFile`, the ``configFile()``, over `saved`),
    /// endpoints discovered when missing; `browser` makes a browser login's settings (a loopback
    /// redirect URI).
    package func resolve(saved: ProfileConfiguration?, fromFile: ProfileConfiguration?, browser: Bool = false, device: Bool = false)
        async throws
        -> ProfileConfiguration
    {
        var settings: ProfileConfiguration
        if let fromFile {
            settings = fromFile
        } else if let saved, clientId == nil || clientId == saved.clientID {
            settings = saved
        } else {
            guard let clientId else { throw ValidationError("--client-id is required (or --config FILE)") }
            settings = ProfileConfiguration(clientID: clientId, redirectUri: ProfileConfiguration.defaultRedirectURI)
        }
        if let clientId { settings.clientID = clientId }
        if let issuer, issuer != settings.issuer {
            settings.issuer = issuer
            settings.baseURL = nil
            settings.tokenEndpoint = nil
            settings.authorizationEndpoint = nil
        }
        if let baseUrl { settings.baseURL = baseUrl }
        if let tokenEndpoint { settings.tokenEndpoint = tokenEndpoint }
        if let authorizationEndpoint { settings.authorizationEndpoint = authorizationEndpoint }
        if let secret = try secret() {
            settings.clientSecret = secret
            settings.strategy = .secret
        }
        if let scope { settings.scope = scope }
        if let redirectUri { settings.redirectUri = redirectUri }
        if let postLogoutRedirectUri { settings.postLogoutRedirectUri = postLogoutRedirectUri }
        if !apiOrigin.isEmpty { settings.apiOrigins = apiOrigin }
        // Kept as an absolute path: later commands run from other folders. The file is read (and
        // refused if it is not PEM) when the login's transport is made, before anything is sent.
        if let cacert { settings.caFile = URL(fileURLWithPath: cacert).standardizedFileURL.path }
        // A CA the login trusted through the environment is kept too, so that the profile's later
        // commands (a refresh, `logout --all` from another shell) reach the same server.
        let environment = ProcessInfo.processInfo.environment
        if settings.caFile == nil,
            let named = [environment["HAAPI_CA_FILE"], environment["SSL_CERT_FILE"]].compactMap({ $0 }).first(where: {
                !$0.isEmpty && !AnnouncedTransport.isSystemBundle($0)
            })
        {
            settings.caFile = URL(fileURLWithPath: named).standardizedFileURL.path
        }
        if browser {
            settings.login = device ? .device : .browser
            if let redirectPort {
                settings.redirectUri = "http://127.0.0.1:\(redirectPort)/callback"
            } else if !Self.isLoopback(settings.redirectUri) {
                settings.redirectUri = "http://127.0.0.1:0/callback"
            }
            if settings.postLogoutRedirectUri == nil {
                settings.postLogoutRedirectUri = redirectPort.map { "http://127.0.0.1:\($0)/logged-out" } ?? "http://127.0.0.1:0/logged-out"
            }
        } else {
            settings.login = nil
        }
        if let attestation {
            settings.attestation = attestation
            settings.strategy = .attestation
        }
        if noDpop { settings.dpop = false }
        if settings.tokenEndpoint == nil || settings.authorizationEndpoint == nil {
            guard let issuer = settings.issuer else {
                throw ValidationError("give --issuer (discovery), or --base-url with --token-endpoint and --authorization-endpoint")
            }
            try await Self.discover(issuer: issuer, into: &settings)
        }
        if settings.baseURL == nil {
            settings.baseURL = settings.issuer.flatMap(Self.origin) ?? settings.tokenEndpoint.flatMap(Self.origin)
        }
        // Whatever the settings came from (flags, a config file, the profile, discovery).
        for (name, value) in [
            ("the issuer", settings.issuer), ("the base URL", settings.baseURL), ("the token endpoint", settings.tokenEndpoint),
            ("the authorization endpoint", settings.authorizationEndpoint),
        ] {
            if let url = value.flatMap(URL.init(string:)) {
                try Self.checkTransportSecurity(url, option: name, allowInsecureHttp: allowInsecureHttp)
            }
        }
        return settings
    }

    /// Whether a redirect URI is one the loopback listener serves (see ``LoopbackUserAgent``).
    package static func isLoopback(_ uri: String) -> Bool {
        URL(string: uri).map(LoopbackUserAgent.serves) ?? false
    }

    package static func origin(_ url: String) -> String? {
        guard var components = URLComponents(string: url) else { return nil }
        components.path = ""
        components.query = nil
        components.fragment = nil
        return components.string
    }

    /// Fills the endpoints the settings lack from the issuer's discovery document (OIDCClient's
    /// discovery: the document must name the same issuer).
    package static func discover(issuer: String, into settings: inout ProfileConfiguration) async throws {
        guard let url = URL(string: issuer), url.scheme != nil else { throw CLIFailure("--issuer \(issuer) is not a URL") }
        let metadata: ProviderMetadata
        do {
            metadata = try await ProviderMetadata.discover(issuer: url, transport: try AnnouncedTransport.make(for: settings))
        } catch {
            // An issuer must be written exactly as the server names itself (Discovery §4.3).
            let exactly =
                (error as? OIDCError)?.code == .issuerMismatch
                ? "; give --issuer exactly as the server names itself (the first URL: the same host name, 127.0.0.1 or localhost, and no trailing slash)"
                : ""
            throw CLIFailure(
                "discovery failed: \((error as? any IdsvrError)?.errorDescription ?? String(describing: error))\(exactly)\(Hints.after(error))"
            )
        }
        if settings.tokenEndpoint == nil { settings.tokenEndpoint = metadata.tokenEndpoint.absoluteString }
        if settings.authorizationEndpoint == nil { settings.authorizationEndpoint = metadata.authorizationEndpoint.absoluteString }
        if settings.userinfoEndpoint == nil { settings.userinfoEndpoint = metadata.userInfoEndpoint?.absoluteString }
        if settings.revocationEndpoint == nil { settings.revocationEndpoint = metadata.revocationEndpoint?.absoluteString }
    }
}
