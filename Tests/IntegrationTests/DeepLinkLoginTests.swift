import Foundation
import HaapiDevServer
import HaapiServerTesting
import HaapiTesting
import OAuthCore
import OAuthTransportNIO
import OAuthTransportURLSession
import OIDCClient
import Testing

/// Deep-link logins end to end (issue 14): the browser is sent back to a private-use scheme or a
/// claimed https link, which the test hands to the client the way an app hands the URL it is
/// opened with: `isOAuthResponse`, then `resumeExternalUserAgentFlow(with:)`. Over the app's
/// transport, URLSession.
@Suite("Deep-link logins against Glewlwyd and haapi server", .serialized)
struct DeepLinkLoginTests {
    /// The app: hands the URL it is opened with to the client.
    static func openApp(with url: URL, client: OIDCClient) {
        guard client.isOAuthResponse(url) else {
            Issue.record("the app was opened with \(url.absoluteString), which the client does not wait for")
            return
        }
        do { try client.resumeExternalUserAgentFlow(with: url) } catch { Issue.record("resume failed: \(error)") }
    }

    // MARK: Glewlwyd

    /// Scripts/op/browser.sh in printing mode: logs alice in (or ends the session) and prints where
    /// the provider sends the browser.
    static func glewlwydBrowser(jar: URL, client: OIDCClient) -> DeepLinkUserAgent {
        DeepLinkUserAgent { url in
            Task.detached {
                let browser = try? Subprocess.run(
                    "/usr/bin/env",
                    ["OP_BROWSER_PRINT=1", "OP_BROWSER_JAR=\(jar.path)", "bash", ProviderBrowser.browserScript, url.absoluteString],
                    timeout: 120)
                guard let line = browser?.output.trimmingCharacters(in: .whitespacesAndNewlines), let returned = URL(string: line) else {
                    return
                }
                openApp(with: returned, client: client)
            }
        }
    }

    @Test(
        .enabled(if: ProviderSettings.load("HAAPI_TEST_OP_ENV") != nil, "needs Scripts/test.sh to start the provider"),
        arguments: ["OP_DEEPLINK_REDIRECT_URI", "OP_CLAIMED_REDIRECT_URI"])
    func glewlwydLoginAndLogout(_ redirectSetting: String) async throws {
        let settings = try #require(ProviderSettings.load("HAAPI_TEST_OP_ENV"))
        let browser = try ProviderBrowser.make()
        defer { browser.remove() }
        let client = OIDCClient(
            configuration: OIDCConfiguration(
                issuer: URL(string: try settings["OP_ISSUER"])!, clientAuthentication: .none(clientID: try settings["OP_PUBLIC_CLIENT_ID"]),
                redirectURI: URL(string: try settings[redirectSetting])!,
                postLogoutRedirectURI: URL(string: try settings["OP_DEEPLINK_POST_LOGOUT_REDIRECT_URI"])!,
                scopes: ["openid", "profile", "offline_access"], userAgentTimeout: 30),
            transport: try URLSessionTransport())
        let agent = Self.glewlwydBrowser(jar: browser.jar, client: client)
        let state = try await client.login(using: agent)
        #expect(state.subject != nil && state.refreshToken != nil)
        #expect(try await client.userInfo().subject == state.subject)
        try await client.endSession(using: agent)
        #expect(try await client.authState == nil)
    }

    // MARK: haapi server

    /// A browser on the development server's pages: follows its redirects, logs the demo user in on
    /// its form, and stops at the redirect to the app.
    static func devServerBrowser(client: OIDCClient, appScheme: String) -> DeepLinkUserAgent {
        DeepLinkUserAgent { url in
            Task.detached {
                var next: URL? = url
                var form: [(String, String)]?
                for _ in 0..<12 {
                    guard let current = next else { return }
                    if current.scheme == appScheme {
                        openApp(with: current, client: client)
                        return
                    }
                    let response: TransportResponse
                    if let form { response = try await Browser.post(current, form) } else { response = try await Browser.get(current) }
                    form = nil
                    if (300..<400).contains(response.status), let location = response.headers["Location"] {
                        next = URL(string: location, relativeTo: current)?.absoluteURL
                    } else if response.status == 200, let page = try? Browser.firstForm(response.bodyText) {
                        next = URL(string: page.action, relativeTo: current)?.absoluteURL
                        form = page.hidden + [("userName", SeedData.username), ("password", "Password1")]
                    } else {
                        Issue.record("the browser stopped at HTTP \(response.status): \(response.bodyText.prefix(200))")
                        return
                    }
                }
            }
        }
    }

    @Test func devServerLogin() async throws {
        try await RunningServer.with { server in
            let redirect = "com.example.swifthaapi:/oauth/callback"
            try await server.state.store.put(
                ClientRecord(
                    clientId: "deep-link-app", strategy: .browser, redirectUris: [redirect], scope: ["openid", "profile"],
                    issueTokenBoundAuthorizationCode: false, authenticators: ["username-password"]),
                kind: "client", id: "deep-link-app")
            let client = OIDCClient(
                configuration: OIDCConfiguration(
                    issuer: server.issuer, clientAuthentication: .none(clientID: "deep-link-app"), redirectURI: URL(string: redirect)!,
                    scopes: ["openid", "profile"], userAgentTimeout: 30),
                transport: try URLSessionTransport())
            let state = try await client.login(using: Self.devServerBrowser(client: client, appScheme: "com.example.swifthaapi"))
            #expect(state.subject == SeedData.username)
            #expect(try await server.state.verifyAccessToken(state.accessToken)?.subject == SeedData.username)
        }
    }
}
