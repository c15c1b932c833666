import Foundation
import HaapiUI
import Testing

// Seed 000, "Can the IdsvrHaapiUIKit support app extension?": storage an app and its
// extension share, the DCR client kept in it, the tokens written to it by the app and
// refreshed from it by the extension.

// MARK: 000-25 Shared storage between an app and its extension
// Changed: the `...` before the HaapiResult implementation is the type that holds it; in
// `didReceiveOAuthModel`, which cannot throw, `try JSONEncoder()` is `try!`, the write has
// its `data:` label and `try?`, and `throw Error()` (no such initializer) is `break`.

// Implementing shared storage using UserDefaults
struct MySharedStorage: Storage {
func read(key: String) throws -> Data? {
guard let data = userDefaults.data(forKey: key) else { return nil }
return data
}
func write(key: String, data: Data) throws {
userDefaults.set(data, forKey: key)
}
func delete(key: String) throws {
userDefaults.removeObject(forKey: key)
}
private let userDefaults: UserDefaults
init(appGroup: String? = nil) {
guard let suiteName = appGroup else {
userDefaults = UserDefaults.standard
return
}
userDefaults = UserDefaults(suiteName: suiteName)!
}
}
extension OAuthTokenModel {
func toMyStoredToken() -> MyStoredToken {
return MyStoredToken(accessToken: accessToken,
tokenType: tokenType ?? "",
scope: scope ?? "",
expiresIn: expiresIn,
refreshToken: refreshToken ?? "",
idToken: idToken ?? "")
}
}
struct MyStoredToken: Codable {
var accessToken: String
var tokenType: String
var scope: String
var expiresIn: Int
var refreshToken: String
var idToken: String
}
// Setting up DCR to use the shared storage to manage client data
let storage = MySharedStorage(appGroup: "group.shared.storage.example")
var haapiUIKitConfiguration =
HaapiUIKitConfigurationBuilder(
clientId: Constants.clientId,
baseUrl: Constants.baseURL,
tokenEndpointUrl: Constants.tokenEndpointURL,
authorizationEndpointUrl: Constants.authorizationEndpointURL,
appRedirect: Constants.appRedirectURIString
)
.setDCRConfiguration(
configuration: DCRConfiguration(
templateClientId: "dcr-template-client-haapi-ios",
clientRegistrationEndpointUrl: URL(string: "/oauth/oauth-registration",
relativeTo: Constants.baseURL)!,
storage: storage)
)
.build()
// Using shared storage to store access token - HaapiResult implementation
@MainActor final class SharedStorageFlowResult: HaapiFlowResult {
func didReceiveOAuthModel(_ oAuthModel: OAuthModel) {
switch oAuthModel {
case is OAuthTokenModel:
// save model
let storableToken = (oAuthModel as! OAuthTokenModel).toMyStoredToken()
let tokenData = try! JSONEncoder().encode(storableToken)
try? storage.write(key: "accessToken", data: tokenData)
default:
break
}
}
    var errors: [Error] = []
    func didReceiveError(_ error: Error) { errors.append(error) }
}

extension SeedSnippets {
    @Suite("Seed 000: app extensions")
    @MainActor struct AppExtensions {
        @Test("000-25: the app stores its tokens and DCR client in shared storage; the extension refreshes from it with the same client")
        func sharedStorage() async throws {
            UserDefaults.standard.removePersistentDomain(forName: "group.shared.storage.example")
            defer { UserDefaults.standard.removePersistentDomain(forName: "group.shared.storage.example") }
            try await SnippetServer.with { server in
                // The server side of the DCR fallback, and the app's client: the template (see 000-6).
                Constants.clientId = "dcr-template-client-haapi-ios"
                try await server.addClient("dcr-template-client-haapi-ios", secret: "s3cret", strategy: .dcr, tokenBound: false)
                let configuration = haapiUIKitConfiguration  // made now, with this server's addresses
                // "When providing a DCRConfiguration it is required to set the ClientAuthenticationMethod
                // to a value different than ClientAuthenticationMethodNone otherwise it will fail."
                let unauthenticated = try HaapiFlowViewModel(haapiUIKitConfiguration: configuration)
                await unauthenticated.start()
                guard case .invalidConfiguration(let reason)? = unauthenticated.error?.underlyingError as? HaapiError else {
                    Issue.record("got \(String(describing: unauthenticated.error))"); return
                }
                #expect(reason.contains("ClientAuthenticationMethodNone"))
                let dcrClientMethod = ClientAuthenticationMethodSecret("s3cret")

                // The app: a flow whose result writes the tokens to the shared storage.
                var appConfiguration = configuration
                appConfiguration.haapiConfiguration.clientAuthenticationMethod = dcrClientMethod
                let application = HaapiUIKitApplicationBuilder(haapiUIKitConfiguration: appConfiguration).build()
                let viewModel = HaapiFlowViewModel(haapiUIKitApplication: application)
                let result = SharedStorageFlowResult()
                viewModel.haapiFlowResult = result
                await viewModel.start()
                try await logInDemoUser(viewModel)
                let data = try await waitFor { try? storage.read(key: "accessToken") }
                let stored = try JSONDecoder().decode(MyStoredToken.self, from: data)
                #expect(result.errors.isEmpty)
                await application.close()

                // The extension: the same configuration, `.oauth`, the token from the shared storage.
                let extensionAccessor: any OAuthAccessor = try await HaapiAccessorBuilder(haapiConfiguration: appConfiguration.haapiConfiguration)
                    .setHaapiAccessorOption(option: .oauth)
                    .setDCRConfiguration(configuration: try #require(configuration.accessorOptions.dcrConfiguration))
                    .build()
                guard case .successfulToken(let refreshed) = await extensionAccessor.oAuthTokenManager.refreshAccessToken(with: stored.refreshToken) else {
                    Issue.record("the extension could not refresh"); return
                }
                let registered = try await server.registeredClients(from: "dcr-template-client-haapi-ios")
                #expect(registered.count == 1)
                #expect(try await server.claims(of: refreshed.accessToken)?.clientId == registered.first?.clientId)
                #expect(try await server.claims(of: stored.accessToken)?.clientId == registered.first?.clientId)
            }
        }
    }
}

// MARK: Beyond 000-25: the same sharing with the library's TokenSession
// The seed leaves the token sharing to the app ("the client code is required to implement the
// token sharing mechanism"); TokenSession is that mechanism: the app starts the session in the
// shared storage, and the app and the extension each keep it alive, one refresh between them.

extension SeedSnippets.AppExtensions {
    @Test("000-25 with TokenSession: the app starts a bound session in shared storage, the extension refreshes it, both see one session")
    func sharedTokenSession() async throws {
        let group = "group.token-session.example"
        UserDefaults.standard.removePersistentDomain(forName: group)
        let container = FileManager.default.temporaryDirectory.appendingPathComponent("app-group-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: container, withIntermediateDirectories: true)
        defer {
            UserDefaults.standard.removePersistentDomain(forName: group)
            try? FileManager.default.removeItem(at: container)
        }
        try await SnippetServer.with { server in
            try await server.addClient("seed-bound", strategy: .attestation, tokenBound: true, scope: ["openid", "profile", "offline_access"])
            Constants.clientId = "seed-bound"
            var configuration = HaapiUIKitConfigurationBuilder(
                clientId: Constants.clientId, baseUrl: Constants.baseURL, tokenEndpointUrl: Constants.tokenEndpointURL,
                authorizationEndpointUrl: Constants.authorizationEndpointURL, appRedirect: Constants.appRedirectURIString
            )
            .setTokenBoundConfiguration(configuration: BoundedTokenConfiguration())
            .setOauthAuthorizationParamsProvider { OAuthAuthorizationParameters(scopes: ["openid", "profile", "offline_access"]) }
            .build()
            configuration.haapiConfiguration.revocationEndpointURL = server.revocationEndpointURL
            // The storage the app and the extension share (the seed's UserDefaults suite), and a
            // lock file in their app group's container for the refreshes.
            let shared = MySharedStorage(appGroup: group)
            let lock = FileLock(url: container.appendingPathComponent("token-session.lock"))
            try await withDevelopmentAttestation {
                // The app: the flow, then the session started with its tokens.
                let application = HaapiUIKitApplicationBuilder(haapiUIKitConfiguration: configuration).build()
                let viewModel = HaapiFlowViewModel(haapiUIKitApplication: application)
                await viewModel.start()
                try await logInDemoUser(viewModel)
                // offline_access (a refresh token) is asked for: the user consents.
                let consent = try await waitFor { viewModel.uiModel?.button(kind: .userConsent) }
                await viewModel.submit(interactionActionModel: consent, parameters: [:])
                let model = try await waitFor { viewModel.oAuthModel as? KitOAuthTokenModel }
                let accessor = try await application.haapiAccessor()
                let manager = accessor.oAuthTokenManager
                // With the issuer, the session verifies the ID token (and the flow's nonce in it).
                let appSession = try manager.tokenSession(storage: shared, lock: lock, issuer: server.baseURL)
                let started = try await manager.startSession(appSession, with: model.response, nonce: await accessor.haapiManager.nonce)
                #expect(started.isDPoPBound && started.subject == "demo" && started.refreshToken != nil)
                let key = try Dpop(privateJWK: try #require(started.dpopKey))
                #expect(try await server.claims(of: started.accessToken)?.jkt == key.thumbprint)
                await application.close()

                // The extension: an `.oauth` accessor of the same configuration, the session from the shared storage.
                let extensionAccessor: any OAuthAccessor = try await HaapiAccessorBuilder(haapiConfiguration: configuration.haapiConfiguration)
                    .setHaapiAccessorOption(option: .oauth).build()
                let extensionSession = try extensionAccessor.oAuthTokenManager.tokenSession(storage: shared, lock: lock)
                let refreshed = try await extensionSession.validAccessToken(minimumLifetime: 100_000)
                #expect(refreshed.value != started.accessToken && refreshed.isDPoPBound)
                #expect(try await server.claims(of: refreshed.value)?.jkt == key.thumbprint, "refreshed with the key stored with the tokens")
                #expect(try await appSession.authState?.accessToken == refreshed.value, "the app sees the extension's refresh")

                // Logging out in the app logs the extension out.
                try await appSession.revoke(.all)
                await #expect(throws: OIDCError.self) { try await extensionSession.validAccessToken(minimumLifetime: 0) }
                #expect(try await server.claims(of: refreshed.value) == nil, "revoked at the server")
            }
        }
    }
}
