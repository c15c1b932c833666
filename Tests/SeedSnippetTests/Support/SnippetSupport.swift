import Foundation
import HaapiDevServer
import HaapiServerTesting
import HaapiTesting
import HaapiUI
import Testing

// The snippet files import HaapiUI alone; they wait for what the snippets do in the background with this.
@_exported import func HaapiTesting.waitFor

// What the seeds' snippets stand on that is not theirs: the app's `Constants`, a server
// configured as their text says ("In your Curity Identity Server, create and configure a
// client..."), a few UIKit names, and a way to wait for what they do in the background.

/// Every snippet test, one at a time: the snippets share the app's `Constants` and the
/// process-wide logger, as the code of one app does.
@Suite("The seeds' snippets", .serialized, .timeLimit(.minutes(2)))
enum SeedSnippets {}

/// The app's constants (the seeds' `Constants.clientId`, `Constants.baseURL`, ...): the `...`
/// of the snippets, pointed at the development server each test starts.
enum Constants {
    static var clientId = "seed-client"
    static var baseURL = URL(string: "http://127.0.0.1")!
    static var tokenEndpointURL = URL(string: "http://127.0.0.1/oauth/token")!
    static var authorizationEndpointURL = URL(string: "http://127.0.0.1/oauth/authorize")!
    static var appRedirectURIString = "haapi://callback"
}

// MARK: UIKit names the snippets mention

// UIKit does not exist here. These stand-ins have only what the snippets touch (a type to
// inherit from, the application's delegate), so that the snippets compile as printed; what is
// tested is our API's part of them. On Apple platforms UIKit's own types take their place.

#if canImport(UIKit)
    @_exported import UIKit
#else
    /// Stand-in for UIKit's `UIResponder`.
    class UIResponder: NSObject {}

    /// Stand-in for UIKit's `UIApplicationDelegate`.
    protocol UIApplicationDelegate: AnyObject {}

    /// Stand-in for UIKit's `UIApplication`: the shared application and its delegate.
    final class UIApplication {
        /// Stand-in for `UIApplication.LaunchOptionsKey`.
        struct LaunchOptionsKey: Hashable {}

        static let shared = UIApplication()
        var delegate: (any UIApplicationDelegate)?
    }
#endif

// MARK: The development server, configured as the snippets' text asks

/// A development server with the clients the snippets name.
struct SnippetServer {
    let server: RunningServer

    var baseURL: URL { server.issuer }
    var tokenEndpointURL: URL { server.issuer.appendingPathComponent("oauth/token") }
    var authorizationEndpointURL: URL { server.issuer.appendingPathComponent("oauth/authorize") }
    var revocationEndpointURL: URL { server.issuer.appendingPathComponent("oauth/revoke") }

    /// Starts a server, points ``Constants`` at it, and runs `body`. The DCR clients and
    /// bound-token keys the SDK keeps in its default storage go to a directory of this run.
    @MainActor static func with(_ body: @MainActor (SnippetServer) async throws -> Void) async throws {
        _ = isolatedDataDirectory
        try await RunningServer.with { server in
            let snippetServer = SnippetServer(server: server)
            Constants.baseURL = snippetServer.baseURL
            Constants.tokenEndpointURL = snippetServer.tokenEndpointURL
            Constants.authorizationEndpointURL = snippetServer.authorizationEndpointURL
            Constants.clientId = "seed-client"
            Constants.appRedirectURIString = "haapi://callback"
            try await snippetServer.addClient("seed-client", strategy: .attestation, tokenBound: false)
            try await body(snippetServer)
        }
    }

    /// The SDK's default storage (`$XDG_DATA_HOME/swift-haapi`) in a directory of this test run.
    static let isolatedDataDirectory: URL = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("seed-snippets-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        setenv("XDG_DATA_HOME", directory.path, 1)
        return directory
    }()

    /// "Create and configure a client": `clientID` with the strategy, secret and binding given,
    /// the username/password authenticator, and the redirects the snippets use.
    func addClient(
        _ clientID: String, secret: String? = nil, strategy: ClientStrategy, tokenBound: Bool, scope: [String] = ["openid", "profile"]
    ) async throws {
        let record = ClientRecord(
            clientId: clientID, clientSecret: secret, strategy: strategy,
            redirectUris: ["haapi://callback", "foo-app-redirect"],
            scope: scope + [SeedData.haapiScope] + (strategy == .dcr ? ["dcr"] : []),
            issueTokenBoundAuthorizationCode: tokenBound, authenticators: ["username-password"])
        try await server.state.store.put(record, kind: "client", id: clientID)
    }

    /// A `private_key_jwt` client whose assertions the server checks with `publicKey`.
    func addClient(_ clientID: String, publicKey: JWK) async throws {
        var record = ClientRecord(
            clientId: clientID, strategy: .jwt, redirectUris: ["haapi://callback"], scope: ["openid", SeedData.haapiScope],
            issueTokenBoundAuthorizationCode: false, authenticators: ["username-password"])
        record.jwks = String(decoding: try JSONValue.encodeSorted(["keys": [publicKey]]), as: UTF8.self)
        try await server.state.store.put(record, kind: "client", id: clientID)
    }

    /// The clients registered from `templateClientID` so far.
    func registeredClients(from templateClientID: String) async throws -> [ClientRecord] {
        try await server.state.store.all(ClientRecord.self, kind: "client").map(\.value).filter { $0.templateClientId == templateClientID }
    }

    /// The claims of an access token the server issued (`nil` when it did not).
    func claims(of accessToken: String) async throws -> AccessTokenClaims? {
        try await server.state.verifyAccessToken(accessToken)
    }
}

/// The development attestation, standing in for App Attest (which this platform lacks) in the
/// snippets that build their accessor from a configuration alone.
@MainActor func withDevelopmentAttestation(_ body: @MainActor () async throws -> Void) async throws {
    try await HaapiAccessorBuilder.withPlatformAttestationProvider(InsecureSoftwareAttestationProvider()) { try await body() }
}

// MARK: Driving a flow the way a user would

/// Logs the demo user in on the current step of `viewModel`: the login form, then the end.
@MainActor func logInDemoUser(_ viewModel: HaapiFlowViewModel, password: String = "Password1") async throws {
    if let error = viewModel.error {
        Issue.record("the flow stopped: \(error.title): \(String(describing: error.underlyingError))")
        throw CancellationError()
    }
    let model = try await waitFor { viewModel.uiModel }
    let form = try #require(model.button(kind: .login), "the step has no login form: \(model)")
    await viewModel.submit(interactionActionModel: form, parameters: ["userName": "demo", "password": password])
}

/// Answers a HAAPI result the way a user would, until the flow ends: the demo user's
/// credentials on the login form, the username/password authenticator at a selector.
func runToAuthorizationResponse(_ manager: HaapiManager, from first: HaapiResult) async throws -> OAuthAuthorizationResponseStep {
    var result = first
    for _ in 0..<8 {
        switch result {
        case .representation(let done as OAuthAuthorizationResponseStep):
            return done
        case .representation(let form as InteractiveFormStep):
            let login = try #require(form.actions.first { $0.kind == .login }?.form)
            result = await manager.submitForm(login, parameters: ["userName": "demo", "password": "Password1"])
        case .representation(let selector as AuthenticatorSelectorStep):
            let option = try #require(selector.authenticators.first)
            result = await manager.submit(option.action)
        default:
            Issue.record("unexpected result: \(result)")
            throw CancellationError()
        }
    }
    throw CancellationError()
}

/// A thread-safe box for what a completion handler delivers.
final class Delivered<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?

    func set(_ value: Value) { lock.withLock { stored = value } }
    func update(_ body: (inout Value?) -> Void) { lock.withLock { body(&stored) } }
    var value: Value? { lock.withLock { stored } }
}

/// The bundle the snippets' `appBundle` stands for: this target's fixtures.
let appBundle = Bundle(url: Bundle.module.bundleURL.appendingPathComponent("Fixtures"))!

extension Result where Failure == any Error {
    /// The outcome of `body`, so that clean-up can run after it whatever happened.
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}

/// Spoils the tokens and DPoP key OAuthTokenManager keeps for configuration `configurationName`
/// in the default storage (and the key an earlier version kept alone), as a device in a bad state would.
func corruptStoredKey(of configurationName: String) throws {
    try DefaultStorage.make().write(key: "haapi-token-session.\(configurationName)", data: Data("not a session".utf8))
    try DefaultStorage.make().write(key: "haapi-oauth-dpop-key.\(configurationName)", data: Data("not a key".utf8))
}
