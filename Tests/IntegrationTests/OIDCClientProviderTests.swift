import Foundation
import HaapiTesting
import OAuthCore
import OAuthTransportNIO
import OAuthTransportURLSession
import OIDCClient
import Testing

/// A headless browser for Glewlwyd (Scripts/op/browser.sh), run by ``SystemBrowserLauncher`` with the
/// URL as their last argument, sharing one cookie jar (the browser's session) per test.
struct ProviderBrowser: Sendable {
    let directory: URL
    let jar: URL
    /// Who logs in, when not the provider's default user: `OP_USER` and `OP_PASSWORD` for the scripts.
    var user: (name: String, password: String)?

    /// A browser with a cookie jar of its own; `user` logs in instead of alice (tests that check
    /// scope-dependent claims use the provider's `OP_CLAIMS_USER`, whose consent no other test changes).
    static func make(user: (name: String, password: String)? = nil) throws -> ProviderBrowser {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("oidc-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return ProviderBrowser(directory: directory, jar: directory.appendingPathComponent("cookies"), user: user)
    }

    /// The provider's user for claim checks (see ``make(user:)``).
    static func claimsUser(_ settings: ProviderSettings) throws -> (name: String, password: String) {
        (try settings["OP_CLAIMS_USER"], try settings["OP_CLAIMS_PASSWORD"])
    }

    /// Scripts/op/browser.sh: logs alice in and consents on the provider's pages, or ends the
    /// session for an end_session URL, then follows the redirect to the loopback listener.
    static var browserScript: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/op/browser.sh").path
    }

    /// Scripts/op/authorize.sh, as `user`: what a browser and Glewlwyd's pages do for `url` (an
    /// authorization request, or a device login's verification page); the last URL it reached
    /// (the redirect with the code, or Glewlwyd's device-complete page) and its exit status.
    static func authorize(_ url: URL, user: String, password: String) throws -> (finalURL: String, status: Int32) {
        let run = try Subprocess.run(
            "/bin/bash", [browserScript.replacingOccurrences(of: "browser.sh", with: "authorize.sh"), url.absoluteString],
            environment: ["OP_USER": user, "OP_PASSWORD": password], timeout: 120)
        return (run.output.trimmingCharacters(in: .whitespacesAndNewlines), run.status)
    }

    /// The browser, with this test's cookie jar (its login session lives there between login and logout).
    var agent: LoopbackUserAgent {
        let login = user.map { ["OP_USER=\($0.name)", "OP_PASSWORD=\($0.password)"] } ?? []
        return LoopbackUserAgent(
            browserCommand: ["env", "OP_BROWSER_JAR=\(jar.path)"] + login + ["bash", Self.browserScript],
            listen: LoopbackRedirectListener.factory)
    }

    var login: LoopbackUserAgent { agent }
    var logout: LoopbackUserAgent { agent }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

@Suite(
    "OIDCClient against a real OpenID Provider (Glewlwyd)", .serialized,
    .enabled(if: ProviderSettings.load("HAAPI_TEST_OP_ENV") != nil, "needs Scripts/op/up.sh and HAAPI_TEST_OP_ENV"))
struct OIDCClientProviderTests {
    let settings = ProviderSettings.load("HAAPI_TEST_OP_ENV")!

    /// A configuration for one of the provisioned clients, with the provider's fixed loopback redirect
    /// (Glewlwyd matches the port exactly).
    func configuration(_ authentication: ClientAuthentication, scopes: [String] = ["openid", "profile", "email", "offline_access"])
        throws -> OIDCConfiguration
    {
        OIDCConfiguration(
            issuer: URL(string: try settings["OP_ISSUER"])!, clientAuthentication: authentication,
            redirectURI: URL(string: try settings["OP_REDIRECT_URI"])!,
            postLogoutRedirectURI: URL(string: try settings["OP_POST_LOGOUT_REDIRECT_URI"])!, scopes: scopes,
            userAgentTimeout: 30)
    }

    var publicClient: ClientAuthentication { get throws { .none(clientID: try settings["OP_PUBLIC_CLIENT_ID"]) } }

    @Test func loginThenUserInfo() async throws {
        let browser = try ProviderBrowser.make(user: try ProviderBrowser.claimsUser(settings))
        defer { browser.remove() }
        let client = OIDCClient(configuration: try configuration(try publicClient), transport: try AsyncHTTPClientTransport())
        let state = try await client.login(using: browser.login)
        #expect(state.issuer == (try settings["OP_ISSUER"]))
        #expect(state.tokenType.lowercased() == "bearer")
        #expect(state.refreshToken != nil && state.idToken != nil)
        let subject = try #require(state.subject)
        let info = try await client.userInfo()
        #expect(info.subject == subject)
        #expect(info[string: "email"] == "bob@example.test")
        // The same fixed port again right away: the previous listener's port may be in TIME_WAIT.
        let again = try await client.login(using: browser.login)
        #expect(again.subject == subject && again.accessToken != state.accessToken)
    }

    /// The app's transport (URLSession; FoundationNetworking here): a whole browser login, UserInfo,
    /// a refresh, revocation and the end of the session.
    @Test func theWholeLifeOfALoginOverURLSession() async throws {
        let browser = try ProviderBrowser.make()
        defer { browser.remove() }
        let client = OIDCClient(configuration: try configuration(try publicClient), transport: try URLSessionTransport())
        let state = try await client.login(using: browser.login)
        let subject = try #require(state.subject)
        #expect(try await client.userInfo().subject == subject)
        let refreshed = try await client.refresh()
        #expect(refreshed.subject == subject && refreshed.accessToken != state.accessToken)
        #expect(try await client.validAccessToken().value == refreshed.accessToken)
        try await client.endSession(using: browser.logout)
        #expect(try await client.authState == nil)
    }

    @Test func refreshRotatesAndTheOldRefreshTokenEndsTheSession() async throws {
        let browser = try ProviderBrowser.make()
        defer { browser.remove() }
        let storage = InMemoryStorage()
        let client = OIDCClient(
            configuration: try configuration(try publicClient), transport: try AsyncHTTPClientTransport(), storage: storage)
        let first = try await client.login(using: browser.login)
        let second = try await client.refresh()
        #expect(second.refreshToken != nil && second.refreshToken != first.refreshToken)
        #expect(second.accessToken != first.accessToken)
        #expect(try await client.validAccessToken().value == second.accessToken)
        // A session holding the rotated-out refresh token: Glewlwyd answers a bare 400, which ends it.
        try await client.setAuthState(first)
        let error = await #expect(throws: OIDCError.self) { try await client.refresh() }
        #expect(error?.code == .loginRequired)
        #expect(storage.keys.isEmpty)
    }

    @Test func concurrentRefreshesSendOneRequest() async throws {
        let browser = try ProviderBrowser.make()
        defer { browser.remove() }
        let transport = RecordingTransport(try AsyncHTTPClientTransport())
        let client = OIDCClient(configuration: try configuration(try publicClient), transport: transport)
        try await client.login(using: browser.login)
        let before = transport.count { $0.url.path.hasSuffix("/token") }
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<10 { group.addTask { try await client.refresh().accessToken } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(tokens.count == 1)
        #expect(transport.count { $0.url.path.hasSuffix("/token") } == before + 1)
        // The one rotated refresh token was kept: refreshing again works.
        _ = try await client.refresh()
    }

    @Test func revocationMakesTheRefreshTokenInactive() async throws {
        let browser = try ProviderBrowser.make()
        defer { browser.remove() }
        let id = try settings["OP_CONF_CLIENT_ID"]
        let secret = try settings["OP_CONF_CLIENT_SECRET"]
        let transport = try AsyncHTTPClientTransport()
        let client = OIDCClient(
            configuration: try configuration(.clientSecretBasic(clientID: id, secret: secret), scopes: ["openid", "offline_access"]),
            transport: transport)
        let state = try await client.login(using: browser.login)
        try await client.revoke()
        #expect(try await client.authState == nil)
        let introspection = URL(string: try settings["OP_ISSUER"] + "/introspect")!
        let response = try await transport.send(
            .form(
                introspection, parameters: [("token", try #require(state.refreshToken)), ("token_type_hint", "refresh_token")],
                headers: ["Authorization": "Basic " + Data("\(id):\(secret)".utf8).base64EncodedString()]))
        #expect(response.status == 200)
        #expect(try JSONValue(parsing: response.body)["active"]?.boolValue == false)
    }

    @Test func endSessionLogsTheBrowserOut() async throws {
        let browser = try ProviderBrowser.make()
        defer { browser.remove() }
        let client = OIDCClient(configuration: try configuration(try publicClient), transport: try AsyncHTTPClientTransport())
        try await client.login(using: browser.login)
        try await client.endSession(using: browser.logout)
        #expect(try await client.authState == nil)
        // With the provider's session gone, the same browser is sent to the login page again.
        let authorize =
            try settings["OP_AUTHORIZATION_ENDPOINT"]
            + "?response_type=code&client_id=\(try settings["OP_PUBLIC_CLIENT_ID"])&scope=openid&nonce=n&state=s"
            + "&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256"
            + "&redirect_uri=" + FormURLEncoding.escape(try settings["OP_REDIRECT_URI"])
        let location = try Subprocess.run(
            "/usr/bin/env", ["curl", "-s", "-o", "/dev/null", "-w", "%{redirect_url}", "-b", browser.jar.path, authorize]
        ).output
        #expect(location.contains("login.html"), "still logged in: \(location)")
    }

    @Test func dpopBoundTokens() async throws {
        let browser = try ProviderBrowser.make()
        defer { browser.remove() }
        var configuration = try configuration(try publicClient)
        configuration.useDPoP = true
        let transport = try AsyncHTTPClientTransport()
        let client = OIDCClient(configuration: configuration, transport: transport)
        let state = try await client.login(using: browser.login)
        #expect(state.isDPoPBound)
        let holder = try #require(try await client.dpopHolder())
        // The access token is a JWT signed by the provider and bound to our key.
        let keysURL = try #require(try await client.discover().jwksURI)
        let keys = try JWKSet(json: try await transport.send(TransportRequest(url: keysURL)).body)
        let accessToken = try VerifiedJWT(state.accessToken, keys: keys, options: JWTValidationOptions(issuer: try settings["OP_ISSUER"]))
        #expect(accessToken.claims.all["cnf"]?["jkt"]?.stringValue == holder.thumbprint)
        // UserInfo accepts it only with a proof of the same key.
        #expect(try await client.userInfo().subject == state.subject)
        let refreshed = try await client.refresh()
        #expect(refreshed.isDPoPBound && refreshed.refreshToken != state.refreshToken)
        #expect(try await client.userInfo().subject == state.subject)
    }

    /// The device authorization grant (RFC 8628) against Glewlwyd: the codes, the user approving
    /// on Glewlwyd's verification page (Scripts/op/authorize.sh with verification_uri_complete,
    /// as a browser on another device), polling to DPoP-bound tokens and a validated ID token.
    @Test func deviceLogin() async throws {
        var configuration = try configuration(try publicClient, scopes: ["openid", "profile", "offline_access"])
        configuration.useDPoP = true
        let client = OIDCClient(configuration: configuration, transport: try AsyncHTTPClientTransport())
        var authorization = try await client.startDeviceAuthorization()
        guard case .pending = try await client.poll(&authorization) else {
            Issue.record("expected authorization_pending")
            return
        }
        let page = try #require(authorization.verificationURIComplete)
        let approval = try ProviderBrowser.authorize(
            page, user: try settings["OP_DEVICE_USER"], password: try settings["OP_DEVICE_PASSWORD"])
        #expect(approval.status == 0 && approval.finalURL.contains("prompt=deviceComplete"), "\(approval.finalURL)")
        let state = try await client.completeDeviceAuthorization(authorization)
        #expect(state.subject != nil)
        #expect(state.isDPoPBound)
        #expect(try await client.userInfo().subject == state.subject)
    }

    @Test func privateKeyJWTClient() async throws {
        let browser = try ProviderBrowser.make()
        defer { browser.remove() }
        let pem = try String(contentsOfFile: try settings["OP_JWT_CLIENT_KEY"], encoding: .utf8)
        var authentication = try ClientAuthentication.privateKeyJWT(
            clientID: try settings["OP_JWT_CLIENT_ID"],
            key: JWSSigningKey(pem: pem, algorithm: .es256, keyID: try settings["OP_JWT_CLIENT_KID"]))
        // Glewlwyd accepts only its token endpoint as an assertion's audience (it answers 403
        // to the issuer, the default); this is the setting for such servers.
        authentication.assertionAudience = .tokenEndpoint
        let client = OIDCClient(
            configuration: try configuration(authentication, scopes: ["openid", "offline_access"]),
            transport: try AsyncHTTPClientTransport())
        let state = try await client.login(using: browser.login)
        #expect(state.subject != nil)
        let refreshed = try await client.refresh()
        #expect(refreshed.accessToken != state.accessToken)
    }

    @Test func pushedAuthorizationRequest() async throws {
        let browser = try ProviderBrowser.make()
        defer { browser.remove() }
        var configuration = try configuration(try publicClient)
        configuration.usePushedAuthorizationRequests = true
        let transport = RecordingTransport(try AsyncHTTPClientTransport())
        let client = OIDCClient(configuration: configuration, transport: transport)
        let state = try await client.login(using: browser.login)
        #expect(transport.count { $0.url.path.hasSuffix("/par") } == 1)
        #expect(state.subject != nil)
    }
}

extension OIDCClientProviderTests {
    @Test func dynamicallyRegisteredClientLogsIn() async throws {
        let browser = try ProviderBrowser.make()
        defer { browser.remove() }
        let transport = try AsyncHTTPClientTransport()
        let metadata = try await ProviderMetadata.discover(issuer: URL(string: try settings["OP_ISSUER"])!, transport: transport)
        let registered = try await DynamicClientRegistration.register(
            // Glewlwyd marks every registered client confidential, so one registered with
            // token_endpoint_auth_method "none" gets no secret and can never redeem a code
            // (unauthorized_client): register a client with a secret.
            ClientRegistrationRequest(
                redirectURIs: [URL(string: try settings["OP_REDIRECT_URI"])!], clientName: "swift-haapi OIDCClient test",
                tokenEndpointAuthMethod: "client_secret_basic", scope: "openid offline_access"),
            metadata: metadata, transport: transport)
        let client = OIDCClient(
            configuration: try configuration(registered.clientAuthentication, scopes: ["openid", "offline_access"]), transport: transport)
        #expect(registered.clientSecret != nil)
        let state = try await client.login(using: browser.login)
        #expect(state.clientID == registered.clientID && state.subject != nil)
        #expect(try await client.refresh().accessToken != state.accessToken)
    }
}

extension OIDCClientProviderTests {
    @Test func maxAgeIsRefusedBecauseGlewlwydSendsAuthTimeZero() async throws {
        let browser = try ProviderBrowser.make()
        defer { browser.remove() }
        let client = OIDCClient(configuration: try configuration(try publicClient), transport: try AsyncHTTPClientTransport())
        // Glewlwyd 2.7.5 puts auth_time 0 (1970) in every ID token, max_age or not; with max_age
        // sent, OpenID Connect Core §3.1.3.7 says such a token is refused, and it is.
        let error = await #expect(throws: OIDCError.self) {
            try await client.login(using: browser.login, options: AuthorizationOptions(maxAge: 3600))
        }
        #expect(error?.code == .invalidIDToken && error?.errorDescription?.contains("max_age") == true)
        #expect(try await client.authState == nil)
    }
}

extension OIDCClientProviderTests {
    /// Nested, so it is serialized with the tests above: they all listen on the provider's fixed loopback port.
    @Suite(
        "with DPoP nonces required",
        .enabled(if: ProviderSettings.load("HAAPI_TEST_OP_NONCE_ENV") != nil, "needs a provider started with OP_DPOP_NONCE=1"))
    struct NonceRequired {
        let settings = ProviderSettings.load("HAAPI_TEST_OP_NONCE_ENV")!

        @Test func dpopLoginRefreshAndUserInfoLearnTheNonces() async throws {
            let browser = try ProviderBrowser.make(user: try ProviderBrowser.claimsUser(settings))
            defer { browser.remove() }
            var configuration = OIDCConfiguration(
                issuer: URL(string: try settings["OP_ISSUER"])!, clientAuthentication: .none(clientID: try settings["OP_PUBLIC_CLIENT_ID"]),
                redirectURI: URL(string: try settings["OP_REDIRECT_URI"])!, scopes: ["openid", "email", "offline_access"],
                userAgentTimeout: 30)
            configuration.useDPoP = true
            let transport = RecordingTransport(try AsyncHTTPClientTransport())
            let client = OIDCClient(configuration: configuration, transport: transport)
            let state = try await client.login(using: browser.login)
            #expect(state.isDPoPBound)
            // The first proof had no nonce: the token endpoint asked for one (400 use_dpop_nonce) and the retry got tokens.
            #expect(transport.statuses.contains(400))
            for _ in 0..<3 {
                #expect(try await client.userInfo()[string: "email"] == "bob@example.test")
                _ = try await client.refresh()
            }
        }
    }
}
