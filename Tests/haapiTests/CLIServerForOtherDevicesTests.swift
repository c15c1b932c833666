import Foundation
import HaapiServerTesting
import HaapiTesting
import OAuthCore
import Testing

/// Issue 38, items 2 and 3: `haapi server` for a phone on the network (`--public-url`) and one
/// client's settings as `haapi login --config` reads them (`--print-config --client`).
@Suite(.ownThreads) struct CLIServerForOtherDevicesTests {
    /// Bound on loopback, named by another URL: discovery and every endpoint it advertises use
    /// the public URL, and the line says where it is bound.
    @Test func aPublicURLNamesTheIssuerAndEveryEndpoint() async throws {
        try HaapiCommand.requireBinary()
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var server: CLITests.ServerProcess?
        var port = 0
        for _ in 0..<20 where server == nil {
            port = Int.random(in: 20_000..<32_000)
            server = try? CLITests.ServerProcess(
                directory: directory, arguments: ["--port", "\(port)", "--public-url", "http://phone-reachable.test:\(port)/"])
        }
        let running = try #require(server)
        defer { running.stop() }
        #expect(running.issuer == "http://phone-reachable.test:\(port) (bound to 127.0.0.1:\(port))")

        let discovery = try await Browser.get(try #require(URL(string: "http://127.0.0.1:\(port)/.well-known/openid-configuration")))
        let document = try JSONValue(parsing: discovery.body)
        #expect(document["issuer"]?.stringValue == "http://phone-reachable.test:\(port)")
        for endpoint in ["authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri"] {
            #expect(
                document[endpoint]?.stringValue?.hasPrefix("http://phone-reachable.test:\(port)/") == true,
                "\(endpoint): \(String(describing: document[endpoint]))")
        }

        let refused = try CLITests.haapi(["server", "--port", "0", "--public-url", "http://phone.test:8080"], home: directory)
        #expect(refused.status == 2 && refused.stderr.contains("give --port with --public-url"), "\(refused.stderr)")
        let path = try CLITests.haapi(["server", "--port", "8080", "--public-url", "http://phone.test:8080/app"], home: directory)
        #expect(path.status == 2 && path.stderr.contains("must be an http or https origin"), "\(path.stderr)")
        // A warning is the command line's, prefixed as every other (issue 56, item 9).
        let proxied = try CLITests.haapi(
            ["server", "--port", "8080", "--public-url", "https://phone.test:8443", "--print-config", "--client", "haapi-secret"],
            home: directory)
        #expect(
            proxied.status == 0 && proxied.stderr.hasPrefix("haapi: warning: --public-url is https but the server serves http"),
            "\(proxied.stderr)")
    }

    /// `--print-config --client ID` prints what `login --config` takes: the secret client's
    /// secret and strategy, the attested client's software attestation, the browser client's
    /// `login`; an app-only client (private_key_jwt) or an unknown id is refused by name.
    @Test func oneClientsSettingsAsLoginReadsThem() throws {
        try HaapiCommand.requireBinary()
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("server.sqlite").path
        func settings(_ client: String) throws -> (HaapiCommand.Run, JSONValue?) {
            let run = try CLITests.haapi(["server", "--print-config", "--database", database, "--client", client], home: directory)
            return (run, try? JSONValue(parsing: Data(run.stdout.utf8)))
        }
        let (secretRun, secret) = try settings("haapi-secret")
        #expect(secretRun.status == 0, "\(secretRun.stderr)")
        #expect(secret?["strategy"]?.stringValue == "secret" && secret?["clientSecret"]?.stringValue?.isEmpty == false)
        #expect(secret?["clientId"]?.stringValue == "haapi-secret" && secret?["redirectUri"]?.stringValue == "haapi://callback")
        let (_, attested) = try settings("haapi-attested")
        #expect(attested?["strategy"]?.stringValue == "attestation" && attested?["attestation"]?.stringValue == "software")
        #expect(attested?["clientSecret"] == nil)
        let (_, browser) = try settings("browser-app")
        #expect(browser?["login"]?.stringValue == "browser" && browser?["scope"]?.stringValue?.contains("openid") == true)
        let (jwt, _) = try settings("haapi-jwt")
        #expect(jwt.status == 1 && jwt.stderr.contains("cannot log in as") && jwt.stdout.isEmpty, "\(jwt.stderr)")
        let (unknown, _) = try settings("nobody")
        #expect(
            unknown.status == 1 && unknown.stderr.contains("no client nobody") && unknown.stderr.contains("haapi-secret"),
            "\(unknown.stderr)")
        let alone = try CLITests.haapi(["server", "--client", "haapi-secret"], home: directory)
        #expect(alone.status == 2 && alone.stderr.contains("--client goes with --print-config"), "\(alone.stderr)")
    }
}
