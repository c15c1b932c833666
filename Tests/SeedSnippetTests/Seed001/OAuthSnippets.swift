import Foundation
import HaapiUI
import Testing

// Seed 001, "Running the OAuth flow", "Binding authorization code" and "DPoP-Nonce / Listening
// to the response from the token endpoint".

// MARK: 001-9, 001-10, 001-11, 001-13 The code exchange and the refresh
// Changed: inside one type (`self`, `authResponseStep`, `haapiManager`, `haapiConfiguration`
// are its); the closures' `// ...` bodies call `handleTokenResponse`, whose first line keeps
// what it is given; closing braces restored.

final class TokenScreen: @unchecked Sendable {
    let haapiConfiguration: HaapiConfiguration
    let haapiManager: HaapiManager
    let authResponseStep: OAuthAuthorizationResponseStep
    let responses = Delivered<[TokenResponse]>()

    init(haapiConfiguration: HaapiConfiguration, haapiManager: HaapiManager, authResponseStep: OAuthAuthorizationResponseStep) {
        self.haapiConfiguration = haapiConfiguration
        self.haapiManager = haapiManager
        self.authResponseStep = authResponseStep
    }

    // 001-9 and 001-13 (the same code)
    func exchange() {
let code = authResponseStep.oauthAuthorizationResponseProperties.code!
let oauthTokenManager = OAuthTokenManager(oauthTokenConfiguration: haapiConfiguration)
oauthTokenManager.fetchAccessToken(with: code) { [weak self] tokenResponse in
// ...
self?.handleTokenResponse(tokenResponse)
}
    }

private func handleTokenResponse(_ tokenResponse: TokenResponse) {
responses.append(tokenResponse)
switch tokenResponse {
case let .successfulToken(successfulToken):
successfulToken.accessToken // access_token
successfulToken.refreshToken // refresh_token
case let .errorToken(errorTokenResponse):
errorTokenResponse.error // error as a String
errorTokenResponse.errorDescription // error description as a String
case let .error(anError): handleError(anError)
}
}

    // 001-10
    func refresh() {
let oauthTokenManager = OAuthTokenManager(oauthTokenConfiguration: haapiConfiguration)
oauthTokenManager.refreshAccessToken(with: "refresh_token") { [weak self] tokenResponse in
self?.handleTokenResponse(tokenResponse)
}
    }

    // 001-11
    func exchangeBound() {
let code = authResponseStep.oauthAuthorizationResponseProperties.code!
let dPoP = haapiManager.dpop
let oauthTokenManager = OAuthTokenManager(oauthTokenConfiguration: haapiConfiguration)
oauthTokenManager.fetchAccessToken(with: code, dpop: dPoP) { [weak self] tokenResponse in
self?.handleTokenResponse(tokenResponse)
}
    }

    private func handleError(_ error: Error) {}
}

// MARK: 001-14 Listening to the raw responses of the token endpoint
// Changed: each `// ...` followed by a line that keeps the value; `errorContent`, which the
// snippet assigns, declared; closing braces restored. The configuration's other arguments
// (the seed shows only `name:` and the listener) filled in, and the manager kept in a
// constant so that it can be used.

@available(iOS 14.0, *)
class MyTokenEndpointResponseListener: OAuthTokenManager.TokenEndpointResponseListener {
    var errorContent: ErrorHTTPURLResponseContent?
    let seen = Delivered<[String]>()
func onSuccess(_ value: OAuthTokenManager.SuccessTokenHTTPURLResponseContent) {
// SuccessfulTokenResponse
// DataAsMap
if let accessToken = value.dataAsDictionary["access_token"] as? String {
// ...
seen.append("access_token \(accessToken)")
}
if let refreshToken = value.dataAsDictionary["refresh_token"] as? String {
// ...
seen.append("refresh_token \(refreshToken)")
}
// HTTPURLResponse
if let httpURLResponse = value.httpURLResponse {
// Headers
if let contentType = httpURLResponse.allHeaderFields["Content-Type"] as? String {
// ...
seen.append("success Content-Type \(contentType)")
}
}
// Error
assert(value.error == nil)
}
func onError(_ value: ErrorHTTPURLResponseContent) {
// DataAsMap
if let errorDescription = value.dataAsDictionary["error_description"] as? String {
// ...
seen.append("error_description \(errorDescription)")
}
if let error = value.dataAsDictionary["error"] as? String {
// ...
seen.append("error \(error)")
}
// HTTPURLResponse
if let httpURLResponse = value.httpURLResponse {
// Headers
if let contentType = httpURLResponse.allHeaderFields["Content-Type"] as? String {
// ...
seen.append("error Content-Type \(contentType)")
}
}
errorContent = value
seen.append("onError")
}
func onTokenError(_ value: OAuthTokenManager.ErrorTokenHTTPURLResponseContent) {
// ErrorTokenResponse.
// DataAsMap
if let errorDescription = value.dataAsDictionary["error_description"] as? String {
// ...
seen.append("token error_description \(errorDescription)")
}
if let error = value.dataAsDictionary["error"] as? String {
// ...
seen.append("token error \(error)")
}
// HTTPURLResponse
if let httpURLResponse = value.httpURLResponse {
// Headers
if let contentType = httpURLResponse.allHeaderFields["Content-Type"] as? String {
// ...
seen.append("token error Content-Type \(contentType)")
}
}
}
}

func listenerSnippet(tokenEndpointURL: URL) -> (HaapiConfiguration, OAuthTokenManager) {
// Create a HaapiConfiguration with MyTokenEndpointResponseListener
let haapiConfiguration = HaapiConfiguration(name: "foo-name",
clientId: "foo-client-id", baseURL: Constants.baseURL, tokenEndpointURL: tokenEndpointURL,
authorizationEndpointURL: Constants.authorizationEndpointURL, appRedirect: "foo-app-redirect",
tokenEndpointResponseListener: MyTokenEndpointResponseListener())
// Create an instance of OAuthTokenManager with the configuration
let oAuthTokenManager = OAuthTokenManager(oauthTokenConfiguration: haapiConfiguration)
    return (haapiConfiguration, oAuthTokenManager)
}

/// A HAAPI login of foo-client-id with a manager made by hand: the manager and the authorization response.
func loginWithManager(_ configuration: HaapiConfiguration) async throws -> (HaapiManager, OAuthAuthorizationResponseStep) {
    var manager: HaapiManager?
    var step: OAuthAuthorizationResponseStep?
    try await withDevelopmentAttestation {
        let made = try HaapiManager(haapiConfiguration: configuration)
        manager = made
        step = try await runToAuthorizationResponse(made, from: await made.start())
    }
    return (try #require(manager), try #require(step))
}

extension SeedSnippets {
    @Suite("Seed 001: the OAuth flow")
    @MainActor struct OAuthFlow {
        @Test("001-9, 001-10: the code gives tokens; a refresh token that is not one is the server's invalid_grant")
        func codeExchangeAndRefresh() async throws {
            try await SnippetServer.with { server in
                try await server.addClient("foo-client-id", strategy: .attestation, tokenBound: false)
                let configuration = fooHaapiConfiguration()
                let (manager, step) = try await loginWithManager(configuration)
                let screen = TokenScreen(haapiConfiguration: configuration, haapiManager: manager, authResponseStep: step)
                screen.exchange()
                let first = try await waitFor { screen.responses.value?.first }
                guard case .successfulToken(let tokens) = first else { Issue.record("got \(first)"); return }
                #expect(try await server.claims(of: tokens.accessToken)?.subject == "demo")
                #expect(tokens.refreshToken != nil)
                screen.refresh()
                let second = try await waitFor { (screen.responses.value?.count ?? 0) > 1 ? screen.responses.value?.last : nil }
                guard case .errorToken(let error) = second else { Issue.record("got \(second)"); return }
                #expect(error.error == "invalid_grant")
                manager.close()
            }
        }

        @Test("001-11, 001-12: with issue-token-bound-authorization-code, the flow's DPoP binds the tokens; without it, invalid_dpop_proof")
        func tokenBoundCode() async throws {
            try await SnippetServer.with { server in
                try await server.addClient("foo-client-id", strategy: .attestation, tokenBound: true)
                let configuration = fooHaapiConfiguration()
                for passesDPoP in [true, false] {
                    let (manager, step) = try await loginWithManager(configuration)
                    let screen = TokenScreen(haapiConfiguration: configuration, haapiManager: manager, authResponseStep: step)
                    if passesDPoP { screen.exchangeBound() } else { screen.exchange() }
                    let response = try await waitFor { screen.responses.value?.first }
                    switch (passesDPoP, response) {
                    case (true, .successfulToken(let tokens)):
                        #expect(tokens.isDPoPBound)
                        #expect(try await server.claims(of: tokens.accessToken)?.jkt == manager.dpop?.thumbprint)
                    case (false, .errorToken(let error)):
                        // The server's answer, as the seed prints it.
                        #expect(error.error == "invalid_dpop_proof")
                        #expect(error.errorDescription == "Missing DPoP Proof Token")
                    default:
                        Issue.record("passing DPoP \(passesDPoP): got \(response)")
                    }
                    manager.close()
                }
            }
        }

        @Test("001-13: UnboundedTokenConfiguration: unbound tokens; with a DPoP object, HaapiError.invalidConfiguration")
        func unboundedCode() async throws {
            try await SnippetServer.with { server in
                try await server.addClient("foo-client-id", strategy: .attestation, tokenBound: false)
                var configuration = fooHaapiConfiguration()
                configuration.tokenBoundConfiguration = UnboundedTokenConfiguration()
                let (manager, step) = try await loginWithManager(configuration)
                let screen = TokenScreen(haapiConfiguration: configuration, haapiManager: manager, authResponseStep: step)
                // "HaapiError.invalidConfiguration in OAuthTokenManager": UnboundedTokenConfiguration and a DPoP object.
                screen.exchangeBound()
                let refused = try await waitFor { screen.responses.value?.first }
                guard case .error(HaapiError.invalidConfiguration) = refused else { Issue.record("got \(refused)"); return }
                screen.exchange()
                let second = try await waitFor { (screen.responses.value?.count ?? 0) > 1 ? screen.responses.value?.last : nil }
                guard case .successfulToken(let tokens) = second else { Issue.record("got \(second)"); return }
                #expect(!tokens.isDPoPBound)
                #expect(try await server.claims(of: tokens.accessToken)?.jkt == nil)
                manager.close()
            }
        }

        @Test("001-14: the listener sees each raw response: tokens, an OAuth error, a failure without an answer")
        func tokenEndpointListener() async throws {
            try await SnippetServer.with { server in
                try await server.addClient("foo-client-id", strategy: .attestation, tokenBound: false)
                let (configuration, oAuthTokenManager) = listenerSnippet(tokenEndpointURL: Constants.tokenEndpointURL)
                let listener = try #require(configuration.tokenEndpointResponseListener as? MyTokenEndpointResponseListener)
                var unbound = fooHaapiConfiguration()
                unbound.tokenBoundConfiguration = UnboundedTokenConfiguration()
                let (manager, step) = try await loginWithManager(unbound)
                manager.close()
                guard case .successfulToken(let tokens) = await oAuthTokenManager.fetchAccessToken(
                    with: try #require(step.oauthAuthorizationResponseProperties.code))
                else { Issue.record("no tokens"); return }
                guard case .errorToken = await oAuthTokenManager.refreshAccessToken(with: "refresh_token") else { Issue.record("refreshed"); return }
                let seen = listener.seen.value ?? []
                #expect(seen.contains("access_token \(tokens.accessToken)"))
                #expect(seen.contains("refresh_token \(try #require(tokens.refreshToken))"))
                #expect(seen.contains { $0.hasPrefix("success Content-Type application/json") })
                #expect(seen.contains("token error invalid_grant"))
                #expect(seen.contains { $0.hasPrefix("token error Content-Type application/json") })
                #expect(listener.errorContent == nil)

                // No server at all: onError, with the error and no response.
                let (_, unreachable) = listenerSnippet(tokenEndpointURL: URL(string: "http://127.0.0.1:1/oauth/token")!)
                _ = await unreachable.refreshAccessToken(with: "refresh_token")
                let failed = try #require(unreachable.configuration.tokenEndpointResponseListener as? MyTokenEndpointResponseListener)
                #expect(failed.seen.value == ["onError"])
                guard case .communication? = failed.errorContent?.error as? HaapiError else {
                    Issue.record("got \(String(describing: failed.errorContent?.error))"); return
                }
                #expect(failed.errorContent?.httpURLResponse == nil)
            }
        }

        @Test("001-15: the application bundle's identifier and the device's context are collected")
        func applicationBundle() throws {
            // MARK: 001-15
            // Changed: the configuration's other arguments (the seed shows only `name:`) filled in.
            let haapiConfiguration = HaapiConfiguration(name: "foo-name",
            clientId: "foo-client-id", baseURL: URL(string: "https://idsvr.example")!, tokenEndpointURL: URL(string: "https://idsvr.example/token")!,
            authorizationEndpointURL: URL(string: "https://idsvr.example/authorize")!, appRedirect: "foo-app-redirect",
            applicationBundle: Bundle.main)
            // MARK: end of 001-15
            let context = try #require(haapiConfiguration.riskAssessmentConfiguration)
            #expect(context.applicationIdentifier == (Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName))
        }
    }
}
