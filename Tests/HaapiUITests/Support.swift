import Foundation
import HaapiDevServer
import HaapiDriver
import HaapiSDK
import HaapiServerTesting
import HaapiTesting
import HaapiUI
import OAuthCore
import OAuthTransportNIO
import Testing

/// Takes the `interval` out of polling steps, so that `autoPollingDuration` applies.
func stripPollingInterval(_ request: TransportRequest, _ response: inout TransportResponse) throws {
    guard response.mediaType == "application/vnd.auth+json",
        var object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any],
        var properties = object["properties"] as? [String: Any], properties["interval"] != nil
    else { return }
    properties["interval"] = nil
    object["properties"] = properties
    response.body = try JSONSerialization.data(withJSONObject: object)
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
    /// Everything the flow sent, and what came back.
    let recorded: RecordingTransport
    /// Breaks one HAAPI request of the flow when a test asks.
    let intercepting: InterceptingTransport

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
        let base = try AsyncHTTPClientTransport()
        let intercepting = stripsPollingInterval ? InterceptingTransport(base, response: stripPollingInterval) : InterceptingTransport(base)
        let recorded = RecordingTransport(intercepting)
        let binding: any TokenBoundConfiguration =
            (bound ?? (client == .attested)) ? BoundedTokenConfiguration() : UnboundedTokenConfiguration()
        let builder = HaapiUIKitConfigurationBuilder(haapiConfiguration: configuration)
            .setTransport(recorded).setStorage(InMemoryStorage())
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
        return FlowHarness(
            server: server, viewModel: HaapiFlowViewModel(haapiUIKitApplication: try applicationBuilder.buildOrThrow()),
            recorded: recorded, intercepting: intercepting)
    }

    var model: (any UIModel)? { viewModel.uiModel }

    /// A HAAPI request: any but the token endpoint's.
    nonisolated static func isHaapiRequest(_ request: TransportRequest) -> Bool { !request.url.path.hasPrefix("/oauth/token") }

    /// Fails the next HAAPI request with ``InjectedFailure``, once.
    func failNextHaapiRequest() { intercepting.failNext(where: Self.isHaapiRequest) }

    /// Answers the next HAAPI request with `status` and an HTML page instead of sending it.
    func answerNextHaapiRequestWithPage(status: Int) {
        intercepting.interceptNext(where: Self.isHaapiRequest) { .text("<html>no</html>", status: status, type: "text/html", to: $0) }
    }

    /// How many HAAPI requests failed as ``failNextHaapiRequest()`` made them.
    var injectedFailures: Int { recorded.errors.filter { $0 is InjectedFailure }.count }

    /// How many refresh-token grants the flow sent.
    var refreshCount: Int { recorded.count { $0.url.path.hasPrefix("/oauth/token") && $0.isRefreshTokenGrant } }

    func requireModel(sourceLocation: SourceLocation = #_sourceLocation) throws -> any UIModel {
        if let error = viewModel.error {
            Issue.record("flow error: \(error.title) \(String(describing: error.underlyingError))", sourceLocation: sourceLocation)
        }
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
            Issue.record(
                "no outcome in \(timeout); error: \(String(describing: viewModel.error)); shown: \(String(describing: viewModel.uiModel))")
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

/// Whether `lhs` and `rhs` hold the same values, property by property, down to values that are
/// `Equatable`: the kit's screen and view styles are classes that, as Curity's, are not
/// `Equatable`, yet a test asks whether two reads of a theme made the same style.
func sameValues(_ lhs: Any, _ rhs: Any) -> Bool {
    if let lhs = lhs as? any Equatable { return lhs.isEqual(to: rhs) }
    let (left, right) = (Mirror(reflecting: lhs), Mirror(reflecting: rhs))
    guard left.subjectType == right.subjectType, left.children.count == right.children.count else { return false }
    return zip(left.children, right.children).allSatisfy { $0.label == $1.label && sameValues($0.value, $1.value) }
}

extension Equatable {
    fileprivate func isEqual(to other: Any) -> Bool { (other as? Self) == self }
}
