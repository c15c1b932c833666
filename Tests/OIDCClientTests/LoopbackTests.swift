import Foundation
import HaapiServerTesting
import HaapiTesting
import OAuthCore
import OAuthTransportNIO
import OIDCClient
import Testing

@Suite("Loopback user agent and browser launcher")
struct LoopbackTests {
    /// A port that was free a moment ago, below Linux's ephemeral range (32768 and up): a port
    /// the system hands out could be taken again, by any outgoing connection of a busy machine,
    /// before the test binds it.
    func freePort() async throws -> Int {
        for _ in 0..<50 {
            guard let probe = try? await LoopbackRedirectListener.start(port: Int.random(in: 20_000..<32_000), path: "/") else { continue }
            let port = probe.port
            await probe.close()
            return port
        }
        throw CancellationError()
    }

    @Test func twoLoginsInARowOnTheSameFixedPortBothWork() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let port = try await freePort()
        let client = try provider.client { $0.redirectURI = URL(string: "http://127.0.0.1:\(port)/callback")! }
        // The listener closes each connection first, so the port's sockets linger in TIME_WAIT
        // on this side; the next login must bind it again at once.
        for _ in 0..<3 {
            try await client.login(using: LoopbackUserAgent(launcher: RedirectFollowingBrowser(), listen: LoopbackRedirectListener.factory))
        }
        let redirects = provider.authorizeRequests.map { $0["redirect_uri"] }
        #expect(redirects == Array(repeating: "http://127.0.0.1:\(port)/callback", count: 3))
    }

    @Test func randomPortIsSentAndTheListenerIsGoneAfterwards() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let client = try provider.client()
        try await client.login(using: LoopbackUserAgent(launcher: RedirectFollowingBrowser(), listen: LoopbackRedirectListener.factory))
        let redirect = try #require(provider.authorizeRequests.first?["redirect_uri"].flatMap(URL.init(string:)))
        let error = await #expect(throws: HTTPTransportError.self) {
            try await AsyncHTTPClientTransport().send(TransportRequest(url: redirect))
        }
        #expect(error?.code == .connectionFailed)
    }

    @Test func listenerAnswersOtherPathsWith404AndKeepsTheFirstRedirect() async throws {
        let listener = try await LoopbackRedirectListener.start(port: 0, path: "/callback")
        let base = "http://127.0.0.1:\(listener.port)"
        let transport = try AsyncHTTPClientTransport()
        #expect(try await transport.send(TransportRequest(url: URL(string: base + "/favicon.ico")!)).status == 404)
        let page = try await transport.send(TransportRequest(url: URL(string: base + "/callback?code=one&state=s")!))
        #expect(page.status == 200 && page.bodyText.contains("close this window"))
        _ = try? await transport.send(TransportRequest(url: URL(string: base + "/callback?code=two&state=s")!))
        let received = await listener.redirect()
        #expect(received?.query == "code=one&state=s")
        await listener.close()
    }

    @Test func aBrowserCommandGetsTheURLAsItsLastArgument() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let client = try provider.client()
        // A headless "browser": curl follows the provider's redirect to the loopback listener.
        let agent = LoopbackUserAgent(
            browserCommand: ["sh", "-c", "curl -s -L -o /dev/null \"$0\""], listen: LoopbackRedirectListener.factory)
        let state = try await client.login(using: agent)
        #expect(state.subject == TestOpenIDProvider.subject)
    }

    @Test func launcherCandidatesComeFromTheCommandOrBROWSERThenTheSystemOpeners() {
        #expect(SystemBrowserLauncher(commandLine: "firefox --private-window").candidates == [["firefox", "--private-window"]])
        let fromEnvironment = SystemBrowserLauncher(environment: ["BROWSER": "w3m:lynx -dump"])
        #expect(fromEnvironment.candidates == [["w3m"], ["lynx", "-dump"], ["xdg-open"], ["open"]])
        #expect(SystemBrowserLauncher(environment: [:]).candidates == [["xdg-open"], ["open"]])
    }

    @Test func aMissingBrowserIsAUserAgentFailure() async throws {
        let launcher = SystemBrowserLauncher(command: ["no-such-browser-\(UUID().uuidString)"])
        let error = await #expect(throws: OIDCError.self) { try await launcher.open(URL(string: "http://127.0.0.1/")!) }
        #expect(error?.code == .userAgentFailed)
    }

    @Test func aRedirectURIThatIsNotLoopbackIsRefused() async throws {
        let error = await #expect(throws: OIDCError.self) {
            _ = try await LoopbackUserAgent(launcher: AbandonedBrowser(), listen: LoopbackRedirectListener.factory).startSession(
                redirectURI: URL(string: "https://example.com/cb")!)
        }
        #expect(error?.code == .invalidConfiguration)
    }
}

@Suite("Provider metadata")
struct ProviderMetadataTests {
    @Test func discoveryURLKeepsTheIssuersPath() {
        #expect(
            ProviderMetadata.discoveryURL(for: URL(string: "https://op.example/api/oidc/")!).absoluteString
                == "https://op.example/api/oidc/.well-known/openid-configuration")
    }

    @Test func metadataSurvivesCodingWithEveryMember() throws {
        let json = Data(
            """
            {"issuer":"https://op.example","authorization_endpoint":"https://op.example/a","token_endpoint":"https://op.example/t",
             "authorization_response_iss_parameter_supported":true,"x_custom":"kept"}
            """.utf8)
        let metadata = try ProviderMetadata(json: json)
        #expect(metadata.authorizationResponseIssParameterSupported)
        #expect(metadata.idTokenSigningAlgValuesSupported == ["RS256"])
        let decoded = try JSONDecoder().decode(ProviderMetadata.self, from: try JSONEncoder().encode(metadata))
        #expect(decoded == metadata && decoded.raw["x_custom"] == "kept")
    }

    @Test func metadataWithoutATokenEndpointIsRefused() {
        let error = #expect(throws: OIDCError.self) {
            try ProviderMetadata(json: Data(#"{"issuer":"https://op.example","authorization_endpoint":"https://op.example/a"}"#.utf8))
        }
        #expect(error?.code == .invalidMetadata)
    }
}
