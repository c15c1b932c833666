import HaapiTesting
import Foundation
import HaapiDevServer
import HaapiDriver
import HaapiSDK
import HaapiUI
import OAuthCore
import Testing
import OAuthTransportNIO

/// A transport that fails the next HAAPI request (not token requests) once armed.
final class FailingOnceTransport: HTTPTransport, @unchecked Sendable {
    struct InjectedFailure: Error {}
    let base: any HTTPTransport
    private let lock = NSLock()
    private var armed = false
    private var armedResponse: TransportResponse?
    private var failures = 0
    private var refreshes = 0

    /// Whether the `interval` of polling steps is removed (so that `autoPollingDuration` applies).
    let stripsPollingInterval: Bool

    init(base: any HTTPTransport, stripsPollingInterval: Bool = false) {
        self.base = base
        self.stripsPollingInterval = stripsPollingInterval
    }

    func arm() { lock.withLock { armed = true } }
    /// Answers the next HAAPI request with `status` and an HTML page instead of sending it.
    func armPage(status: Int) {
        lock.withLock { armedResponse = TransportResponse(status: status, headers: ["Content-Type": "text/html"], body: Data("<html>no</html>".utf8), url: URL(string: "http://127.0.0.1/")!) }
    }
    var failureCount: Int { lock.withLock { failures } }
    /// How many refresh-token grants were sent.
    var refreshCount: Int { lock.withLock { refreshes } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        if request.url.path.hasPrefix("/oauth/token"), let body = request.body, String(decoding: body, as: UTF8.self).contains("grant_type=refresh_token") {
            lock.withLock { refreshes += 1 }
        }
        let fail = !request.url.path.hasPrefix("/oauth/token") && lock.withLock {
            defer { if armed { armed = false; failures += 1 } }
            return armed
        }
        if fail {
            throw InjectedFailure()
        }
        if !request.url.path.hasPrefix("/oauth/token"), let page = lock.withLock({ () -> TransportResponse? in
            defer { armedResponse = nil }
            return armedResponse
        }) {
            return page
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
@MainActor struct FlowHarness {
    let server: RunningServer
    let viewModel: HaapiFlowViewModel
    let failing: FailingOnceTransport

    nonisolated static let appRedirect = "haapi://callback"

    static func make(
        _ server: RunningServer, client: TestClient, scopes: [String] = ["openid"], bound: Bool? = nil,
        stripsPollingInterval: Bool = false, configure: (HaapiUIKitConfigurationBuilder) -> Void = { _ in },
        application: (HaapiUIKitApplicationBuilder) -> Void = { _ in }
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
        let binding: any TokenBoundConfiguration = (bound ?? (client == .attested)) ? BoundedTokenConfiguration() : UnboundedTokenConfiguration()
        let builder = HaapiUIKitConfigurationBuilder(haapiConfiguration: configuration)
            .setTransport(failing).setStorage(InMemoryStorage())
            .setTokenBoundConfiguration(configuration: binding)
        switch client {
        case .attested:
            builder.setAttestationProvider(InsecureSoftwareAttestationProvider())
        case .secret:
            let secret = try #require(try await server.state.store.get(ClientRecord.self, kind: "client", id: "haapi-secret")?.clientSecret)
            builder.setClientAuthenticationMethod(method: ClientAuthenticationMethodSecret(secret)).setAccessStrategy(.clientCredentials)
        }
        configure(builder)
        let applicationBuilder = HaapiUIKitApplicationBuilder(haapiUIKitConfiguration: builder.build())
        application(applicationBuilder)
        return FlowHarness(server: server, viewModel: HaapiFlowViewModel(haapiUIKitApplication: try applicationBuilder.buildOrThrow()), failing: failing)
    }

    var model: (any UIModel)? { viewModel.uiModel }

    func requireModel(sourceLocation: SourceLocation = #_sourceLocation) throws -> any UIModel {
        if let error = viewModel.error { Issue.record("flow error: \(error.title) \(String(describing: error.underlyingError))", sourceLocation: sourceLocation) }
        return try #require(viewModel.uiModel, sourceLocation: sourceLocation)
    }

    /// The code the OTP authenticator "sent" in this flow.
    func otpCode() async throws -> String {
        // The session id is the manager's; the test hook is keyed by it.
        let sessionID = try #require(await viewModel.accessor?.haapiManager.currentSessionID)
        return try #require(try await server.state.store.get(String.self, kind: "otp-test-hook", id: sessionID))
    }

    /// Chooses `authenticatorType` at the selector.
    func choose(_ authenticatorType: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        guard let selector = try requireModel(sourceLocation: sourceLocation) as? KitSelectorModel else {
            Issue.record("expected a selector", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        await viewModel.select(try #require(selector.option(authenticatorType: authenticatorType), sourceLocation: sourceLocation))
    }

    /// Fills the login form in.
    func login(username: String = "demo", password: String = "Password1") async throws {
        let form = try #require(try requireModel().button(kind: .login))
        await viewModel.submit(interactionActionModel: form, parameters: ["userName": username, "password": password])
    }

    /// Waits until the flow ends with an OAuth model.
    // A ceiling for a loaded CI machine (every suite at once on 2 cores), not a timing claim.
    func outcome(timeout: Duration = .seconds(30)) async throws -> any OAuthModel {
        do {
            return try await waitFor(timeout: timeout) { viewModel.oAuthModel }
        } catch {
            // What the flow shows instead, so that a failure says where it stopped.
            Issue.record("no outcome in \(timeout); error: \(String(describing: viewModel.error)); shown: \(String(describing: viewModel.uiModel))")
            throw error
        }
    }

    /// The flow's DPoP key.
    var dpop: Dpop? { viewModel.accessor?.haapiManager.dpop }

    func close() async {
        viewModel.stop()
        await viewModel.haapiUIKitApplication.close()
    }
}


/// A ``HaapiFlowResult`` that records what it receives.
@MainActor final class FlowResultRecorder: HaapiFlowResult {
    var models: [any OAuthModel] = []
    var errors: [any Error] = []

    func didReceiveOAuthModel(_ oAuthModel: any OAuthModel) { models.append(oAuthModel) }
    func didReceiveError(_ error: any Error) { errors.append(error) }
}

extension OAuthModel {
    /// The kit's tokens, if the flow ended with them.
    var kitTokens: KitOAuthTokenModel? { self as? KitOAuthTokenModel }
    /// The kit's OAuth error, if the flow ended with one.
    var kitError: KitOAuthErrorModel? { self as? KitOAuthErrorModel }
}
