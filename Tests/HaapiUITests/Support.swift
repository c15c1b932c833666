import Foundation
import HaapiDevServer
import HaapiDriver
import HaapiSDK
import HaapiUI
import Hummingbird
import OAuthCore
import ServiceLifecycle
import Testing

/// The development server, running in-process on a free loopback port for the body's duration.
struct RunningServer {
    let issuer: URL
    let state: ServerState

    static func with<T>(
        _ configuration: DevServerConfiguration = DevServerConfiguration(), _ body: (RunningServer) async throws -> T
    ) async throws -> T {
        let state = try await ServerState.open(configuration: configuration)
        let (stream, continuation) = AsyncStream<URL>.makeStream()
        let app = DevServer.makeApplication(state: state) { continuation.yield($0) }
        let group = ServiceGroup(configuration: .init(services: [app], logger: .init(label: "test")))
        let outcome: Result<T, any Error> = await withTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try? await group.run() }
            var iterator = stream.makeAsyncIterator()
            guard let issuer = await iterator.next() else { return .failure(CancellationError()) }
            let result: Result<T, any Error>
            do { result = .success(try await body(RunningServer(issuer: issuer, state: state))) } catch { result = .failure(error) }
            await group.triggerGracefulShutdown()
            await tasks.waitForAll()
            return result
        }
        // SQLite connections must be closed before they are released.
        try await state.store.close()
        return try outcome.get()
    }
}

/// A transport that fails the next HAAPI request (not token requests) once armed.
final class FailingOnceTransport: HTTPTransport, @unchecked Sendable {
    struct InjectedFailure: Error {}
    let base: any HTTPTransport
    private let lock = NSLock()
    private var armed = false
    private var failures = 0

    /// Whether the `interval` of polling steps is removed (so that `autoPollingDuration` applies).
    let stripsPollingInterval: Bool

    init(base: any HTTPTransport, stripsPollingInterval: Bool = false) {
        self.base = base
        self.stripsPollingInterval = stripsPollingInterval
    }

    func arm() { lock.withLock { armed = true } }
    var failureCount: Int { lock.withLock { failures } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let fail = !request.url.path.hasPrefix("/oauth/token") && lock.withLock {
            defer { if armed { armed = false; failures += 1 } }
            return armed
        }
        if fail {
            throw InjectedFailure()
        }
        var response = try await base.send(request)
        if stripsPollingInterval, response.mediaType == "application/vnd.auth+json",
            var object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any],
            var properties = object["properties"] as? [String: Any], properties["interval"] != nil
        {
            properties["interval"] = nil
            object["properties"] = properties
            response.body = try JSONSerialization.data(withJSONObject: object)
        }
        return response
    }
}

/// Which seeded client a test flow uses.
enum TestClient {
    /// `haapi-attested`: attestation, token-bound codes, username/password only.
    case attested
    /// `haapi-secret`: client secret, unbound codes, a selector of four authenticators.
    case secret
}

/// A view model against the running server.
struct FlowHarness {
    let server: RunningServer
    let viewModel: HaapiFlowViewModel
    let failing: FailingOnceTransport

    static let appRedirect = "haapi://callback"

    static func make(
        _ server: RunningServer, client: TestClient, scopes: [String] = ["openid"], bound: Bool? = nil,
        stripsPollingInterval: Bool = false, configure: (HaapiUIConfigurationBuilder) -> Void = { _ in }
    ) async throws -> FlowHarness {
        let issuer = server.issuer
        let clientID = client == .attested ? "haapi-attested" : "haapi-secret"
        let configuration = HaapiConfiguration(
            name: "ui-\(UUID().uuidString)", clientId: clientID, baseURL: issuer,
            tokenEndpointURL: issuer.appendingPathComponent("oauth/token"),
            authorizationEndpointURL: issuer.appendingPathComponent("oauth/authorize"), appRedirect: appRedirect,
            authorizationParametersProvider: { OAuthAuthorizationParameters(scopes: scopes, state: "ui-state") },
            revocationEndpointURL: issuer.appendingPathComponent("oauth/revoke"))
        let failing = FailingOnceTransport(base: try AsyncHTTPClientTransport(), stripsPollingInterval: stripsPollingInterval)
        let builder = HaapiUIConfigurationBuilder(haapiConfiguration: configuration)
            .setTransport(failing).setStorage(InMemoryStorage())
            .setTokenBoundConfiguration(configuration: (bound ?? (client == .attested)) ? BoundedTokenConfiguration() : UnboundedTokenConfiguration())
        switch client {
        case .attested:
            builder.setAttestationProvider(InsecureSoftwareAttestationProvider())
        case .secret:
            let secret = try #require(try await server.state.store.get(ClientRecord.self, kind: "client", id: "haapi-secret")?.clientSecret)
            builder.setClientAuthenticationMethod(method: ClientAuthenticationMethodSecret(secret)).setAccessStrategy(.clientCredentials)
        }
        configure(builder)
        return FlowHarness(server: server, viewModel: try HaapiFlowViewModel(configuration: builder.build()), failing: failing)
    }

    var model: UIModel? { viewModel.uiModel.value }

    func requireModel(sourceLocation: SourceLocation = #_sourceLocation) throws -> UIModel {
        if let error = viewModel.error.value { Issue.record("flow error: \(error.title) \(String(describing: error.underlyingError))", sourceLocation: sourceLocation) }
        return try #require(viewModel.uiModel.value, sourceLocation: sourceLocation)
    }

    /// The code the OTP authenticator "sent" in this flow.
    func otpCode() async throws -> String {
        // The session id is the manager's; the test hook is keyed by it.
        let sessionID = try #require(await viewModel.accessor.haapiManager?.currentSessionID)
        return try #require(try await server.state.store.get(String.self, kind: "otp-test-hook", id: sessionID))
    }

    /// Chooses `authenticatorType` at the selector.
    func choose(_ authenticatorType: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        guard case .selector(let selector) = try requireModel(sourceLocation: sourceLocation).content else {
            Issue.record("expected a selector", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        await viewModel.select(try #require(selector.option(authenticatorType: authenticatorType), sourceLocation: sourceLocation))
    }

    /// Fills the login form in.
    func login(username: String = "demo", password: String = "Password1") async throws {
        let form = try #require(try requireModel().form(kind: .login))
        await viewModel.submit(form, values: ["userName": username, "password": password])
    }

    /// Waits until the flow ends with an OAuth model.
    func outcome(timeout: Duration = .seconds(8)) async throws -> OAuthModel {
        try await waitFor(viewModel.oAuthModel, timeout: timeout) { $0 }
    }

    func close() async { await viewModel.close() }
}

struct TimedOut: Error {}

/// Waits until `transform` of the state's value is not `nil`.
func waitFor<Value: Sendable, T: Sendable>(
    _ state: FlowState<Value>, timeout: Duration = .seconds(8), _ transform: @escaping @Sendable (Value) -> T?
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask {
            for await value in state.values { if let found = transform(value) { return found } }
            throw CancellationError()
        }
        group.addTask {
            try await Task.sleep(for: timeout)
            throw TimedOut()
        }
        defer { group.cancelAll() }
        return try #require(try await group.next())
    }
}

/// A plain HTTP client (no Accept, no token), like a browser that does not follow redirects.
enum Browser {
    static func get(_ url: URL) async throws -> TransportResponse {
        try await AsyncHTTPClientTransport().send(TransportRequest(url: url, headers: ["Accept": "text/html"]))
    }

    static func post(_ url: URL, _ form: [(String, String)]) async throws -> TransportResponse {
        try await AsyncHTTPClientTransport().send(TransportRequest.form(url, parameters: form, headers: ["Accept": "text/html"]))
    }

    /// The action and hidden fields of the first form of an HTML page.
    static func firstForm(_ html: String) throws -> (action: String, hidden: [(String, String)]) {
        let action = try #require(html.firstMatch(of: /<form method="post" action="([^"]*)">/)?.1)
        let formEnd = html.range(of: "</form>")?.lowerBound ?? html.endIndex
        let hidden = html[..<formEnd].matches(of: /<input type="hidden" name="([^"]*)" value="([^"]*)">/).map {
            (unescape(String($0.1)), unescape(String($0.2)))
        }
        return (unescape(String(action)), hidden)
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }

    static func query(_ url: String) -> [String: String] {
        Dictionary(FormURLEncoding.decode(URLComponents(string: url)?.percentEncodedQuery ?? ""), uniquingKeysWith: { first, _ in first })
    }
}
