import Foundation
import HaapiTesting
import OAuthCore
import OAuthTransportNIO
import OIDCClient
import Testing

/// `haapi login --browser` and the token commands against Glewlwyd, with Scripts/op/browser.sh
/// as the browser (it logs alice in on the provider's pages and follows the redirect to the
/// CLI's loopback listener).
@Suite(
    "haapi login --browser against a real OpenID Provider (Glewlwyd)", .serialized,
    .enabled(if: ProviderSettings.load("HAAPI_TEST_OP_ENV") != nil, "needs Scripts/test.sh to start the provider"), .ownThreads)
struct CLIBrowserLoginTests {
    let settings = ProviderSettings.load("HAAPI_TEST_OP_ENV")!
    static let browser = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/op/browser.sh").path

    /// Runs `haapi` with the test's home and cookie jar.
    func haapi(_ arguments: [String], home: URL) throws -> HaapiCommand.Run {
        let run = try HaapiCommand.run(
            arguments, home: home, timeout: 60, environment: ["OP_BROWSER_JAR": home.appendingPathComponent("cookies").path])
        #expect(!run.timedOut, "haapi \(arguments.first ?? "") did not finish")
        return run
    }

    func port(_ uri: String) throws -> String { String(try #require(URL(string: uri)?.port)) }

    /// `haapi login --device` against Glewlwyd: the terminal shows the address with the code,
    /// the user approves there on "another device" (Scripts/op/authorize.sh), and the profile
    /// holds a DPoP-bound login.
    @Test func deviceLoginKeepsTheTokensInTheProfile() throws {
        let home = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let launched = try HaapiCommand.prepare(
            [
                "login", "--device", "--issuer", try settings["OP_ISSUER"], "--client-id", try settings["OP_PUBLIC_CLIENT_ID"],
                "--scope", "openid profile offline_access",
            ], home: home)
        try launched.process.run()
        let user = try settings["OP_CLI_DEVICE_USER"]
        let password = try settings["OP_CLI_DEVICE_PASSWORD"]
        let errors = launched.standardErrorFile
        // The other device: the link with the code in it, opened once it is printed.
        Thread {
            let start = Date()
            while Date().timeIntervalSince(start) < 60 {
                let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
                if let match = text.firstMatch(of: /Or open (\S+), which has the code in it/), let page = URL(string: String(match.1)) {
                    _ = try? ProviderBrowser.authorize(page, user: user, password: password)
                    return
                }
                usleep(50_000)
            }
        }.start()
        let run = try #require(try HaapiCommand.collect([launched], timeout: 60).first)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("enter the code"), "\(run.stderr)")
        let status = try haapi(["status", "--json"], home: home)
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("\"type\" : \"DPoP\""), "\(status.stdout)")
    }

    @Test func confidentialClientLoginTokensRefreshAndLogoutWithEndSession() async throws {
        let home = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let login = try haapi(
            [
                "login", "--browser", "--issuer", try settings["OP_ISSUER"], "--client-id", try settings["OP_CONF_CLIENT_ID"],
                "--client-secret", try settings["OP_CONF_CLIENT_SECRET"], "--redirect-uri", try settings["OP_CLI_REDIRECT_URI"],
                "--post-logout-redirect-uri", try settings["OP_CLI_POST_LOGOUT_REDIRECT_URI"], "--scope", "openid profile offline_access",
                "--no-dpop", "--browser-command", Self.browser,
            ], home: home)
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout.isEmpty)
        #expect(login.stderr.contains("Logged in as"))

        let status = try haapi(["status", "--json"], home: home)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        #expect((report["binding"] as? [String: Any])?["type"] as? String == "Bearer")
        let subject = try #require(report["subject"] as? String)

        // The token is the provider's: it verifies with the provider's keys.
        let token = try haapi(["token"], home: home)
        #expect(token.status == 0, "\(token.stderr)")
        let keys = try await providerKeys()
        let verified = try VerifiedJWT(
            token.stdout.trimmingCharacters(in: .newlines), keys: keys, options: JWTValidationOptions(issuer: try settings["OP_ISSUER"]))
        #expect(verified.claims.subject == subject)

        let userinfo = try haapi(["userinfo"], home: home)
        #expect(userinfo.status == 0, "\(userinfo.stderr)")
        #expect(userinfo.stdout.contains("\"sub\" : \"\(subject)\""))

        let refresh = try haapi(["refresh"], home: home)
        #expect(refresh.status == 0, "\(refresh.stderr)")
        #expect(refresh.stderr.contains("refresh token rotated"))

        // A second login on the same fixed port works (the listener of the first is gone).
        let again = try haapi(["login", "--browser-command", Self.browser], home: home)
        #expect(again.status == 0, "\(again.stderr)")

        let logout = try haapi(["logout", "--end-session", "--browser-command", Self.browser], home: home)
        #expect(logout.status == 0, "\(logout.stderr)")
        #expect(logout.stderr.contains("the provider ended its session"))
        #expect(try haapi(["status"], home: home).status == 4)
        // The provider's login session is over: the next authorization request meets the login page.
        let authorize = try await AsyncHTTPClientTransport().send(
            TransportRequest(
                url: try #require(
                    URL(
                        string: try settings["OP_AUTHORIZATION_ENDPOINT"]
                            + "?response_type=code&client_id=\(try settings["OP_CONF_CLIENT_ID"])&redirect_uri=\(try settings["OP_CLI_REDIRECT_URI"])&scope=openid&nonce=n&state=s"
                    ))))
        #expect(authorize.headers["Location"]?.contains("login.html") == true, "\(authorize.status) \(authorize.headers["Location"] ?? "")")
    }

    @Test func publicClientGetsDPoPBoundTokens() async throws {
        let home = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let login = try haapi(
            [
                "login", "--browser", "--profile", "native", "--issuer", try settings["OP_ISSUER"], "--client-id",
                try settings["OP_PUBLIC_CLIENT_ID"],
                "--redirect-port", try port(try settings["OP_CLI_REDIRECT_URI"]), "--scope", "openid profile offline_access",
                "--browser-command", Self.browser,
            ], home: home)
        #expect(login.status == 0, "\(login.stderr)")
        let status = try haapi(["status", "--json", "--profile", "native"], home: home)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        let jkt = try #require((report["binding"] as? [String: Any])?["jkt"] as? String)
        let token = try haapi(["token", "--profile", "native"], home: home)
        let verified = try VerifiedJWT(token.stdout.trimmingCharacters(in: .newlines), keys: try await providerKeys())
        #expect(verified.claims.all["cnf"]?["jkt"]?.stringValue == jkt)
        let userinfo = try haapi(["userinfo", "--profile", "native"], home: home)
        #expect(userinfo.status == 0, "\(userinfo.stderr)")
        let refresh = try haapi(["refresh", "--profile", "native"], home: home)
        #expect(refresh.status == 0, "\(refresh.stderr)")
        // This provider lets only confidential clients revoke: logout says so, and still deletes the tokens.
        let logout = try haapi(["logout", "--profile", "native"], home: home)
        #expect(logout.status == 1)
        #expect(logout.stderr.contains("deleted here"), "\(logout.stderr)")
        #expect(try haapi(["token", "--profile", "native"], home: home).status == 4)
    }

    /// Glewlwyd revokes a whole refresh-token chain when a spent refresh token comes back, so
    /// two refreshes with one token would log the user out: processes and tasks asking at
    /// once for more than a token lives make one refresh between them, and the chain goes on.
    @Test func processesAndTasksSharingAProfileMakeOneRefreshAndTheChainGoesOn() async throws {
        let home = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let clientID = try settings["OP_PUBLIC_CLIENT_ID"]
        let login = try haapi(
            [
                "login", "--browser", "--profile", "shared", "--issuer", try settings["OP_ISSUER"], "--client-id", clientID,
                "--redirect-port", try port(try settings["OP_CLI_REDIRECT_URI"]), "--scope", "openid profile offline_access",
                "--browser-command", Self.browser,
            ], home: home)
        #expect(login.status == 0, "\(login.stderr)")
        let storage = try FileStorage(directory: home.appendingPathComponent("home/profiles/shared"))
        let counted = RecordingTransport(try AsyncHTTPClientTransport())
        let session = TokenSession(
            clientID: clientID, provider: OpenIDProvider(issuer: URL(string: try settings["OP_ISSUER"])!, transport: counted),
            storage: storage, storageKey: "tokens.json")
        let before = try #require(try await session.authState)

        let outcome = try await HaapiCommand.atOnce(
            holding: try storage.lock(for: "tokens.json"), processes: 6, ["token", "--profile", "shared", "--min-ttl", "100000"],
            home: home,
            tasks: 100, joined: { _ = try await session.authState }
        ) { try await session.validAccessToken(minimumLifetime: 100_000).value }
        for run in outcome.processes { #expect(run.status == 0, "\(run.stderr)") }
        let printed = Set(outcome.processes.map { $0.stdout.trimmingCharacters(in: .newlines) })
        let returned = Set(try outcome.tasks.map { try $0.get() })
        #expect(printed.count == 1 && printed == returned, "every process and task has the one refresh's token")
        #expect(printed.first != before.accessToken)
        let sentByProcesses = outcome.processes.filter { $0.stderr.contains("refresh: sending the refresh token") }.count
        let sentFromHere = counted.count(where: \.isRefreshTokenGrant)
        #expect(
            sentByProcesses + sentFromHere == 1, "one refresh request in all (\(sentByProcesses) from processes, \(sentFromHere) from here)"
        )

        // The chain was never reused, so it goes on: from a process, then from here.
        let refresh = try haapi(["refresh", "--profile", "shared"], home: home)
        #expect(refresh.status == 0, "\(refresh.stderr)")
        let renewed = try await session.refresh()
        let verified = try VerifiedJWT(renewed.accessToken, keys: try await providerKeys())
        #expect(verified.claims.subject == before.subject)
    }

    func providerKeys() async throws -> JWKSet {
        let transport = try AsyncHTTPClientTransport()
        let discovery = try await transport.send(TransportRequest(url: try #require(URL(string: try settings["OP_DISCOVERY"]))))
        let jwksURI = try #require(try JSONValue(parsing: discovery.body)["jwks_uri"]?.stringValue)
        return try JWKSet(json: try await transport.send(TransportRequest(url: try #require(URL(string: jwksURI)))).body)
    }
}
