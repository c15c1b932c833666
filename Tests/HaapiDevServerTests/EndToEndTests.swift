import Foundation
import HaapiDevServer
import HaapiDriver
import HaapiSDK
import HaapiServerTesting
import HaapiTesting
import OAuthCore
import OAuthTransportNIO
import OAuthTransportURLSession
import Testing

/// The whole client stack (HaapiAccessorBuilder → driver → HaapiManager → OAuthTokenManager)
/// against the development server, over real HTTP: one full username/password login per
/// access strategy, ending in tokens, a refresh and a revocation.
@Suite("End to end: every access strategy against haapi server")
struct EndToEndTests {
    enum Strategy: String, CaseIterable, Sendable {
        case attestation, secret, jwt, dcr
    }

    func configuration(_ server: RunningServer, clientID: String, method: any ClientAuthenticationMethod) -> HaapiConfiguration {
        let issuer = server.issuer
        return HaapiConfiguration(
            name: "e2e-\(UUID().uuidString)", clientId: clientID, baseURL: issuer,
            tokenEndpointURL: issuer.appendingPathComponent("oauth/token"),
            authorizationEndpointURL: issuer.appendingPathComponent("oauth/authorize"), appRedirect: "haapi://callback",
            revocationEndpointURL: issuer.appendingPathComponent("oauth/revoke"), clientAuthenticationMethod: method)
    }

    /// The network of an end-to-end login: the app's (URLSession) or OAuthTransportNIO's.
    enum Transport: String, CaseIterable, Sendable {
        case urlSession, asyncHTTPClient

        func make() throws -> any HTTPTransport {
            self == .urlSession ? try URLSessionTransport() : try AsyncHTTPClientTransport()
        }
    }

    func accessor(_ strategy: Strategy, _ server: RunningServer, storage: InMemoryStorage, transport: Transport) async throws
        -> any HaapiAccessor
    {
        let store = server.state.store
        switch strategy {
        case .attestation:
            return try await HaapiAccessorBuilder(
                haapiConfiguration: configuration(server, clientID: "haapi-attested", method: ClientAuthenticationMethodNone())
            )
            .setAttestationProvider(InsecureSoftwareAttestationProvider()).setStorage(storage).setTransport(try transport.make()).build()
        case .secret:
            let secret = try #require(try await store.get(ClientRecord.self, kind: "client", id: "haapi-secret")?.clientSecret)
            return try await HaapiAccessorBuilder(
                haapiConfiguration: configuration(server, clientID: "haapi-secret", method: ClientAuthenticationMethodSecret(secret))
            )
            .setAccessStrategy(.clientCredentials).setStorage(storage).setTransport(try transport.make()).build()
        case .jwt:
            let key = try JWSSigningKey(jwk: try #require(try await store.get(JWK.self, kind: "client-key", id: "haapi-jwt")))
            return try await HaapiAccessorBuilder(
                haapiConfiguration: configuration(
                    server, clientID: "haapi-jwt", method: try ClientAuthenticationMethodJWTAsymmetric(key: key))
            )
            .setAccessStrategy(.clientCredentials).setStorage(storage).setTransport(try transport.make()).build()
        case .dcr:
            let secret = try #require(try await store.get(ClientRecord.self, kind: "client", id: "haapi-dcr-template")?.clientSecret)
            let dcr = DCRConfiguration(
                templateClientId: "haapi-dcr-template",
                clientRegistrationEndpointUrl: server.issuer.appendingPathComponent("oauth/register"),
                storage: storage)
            return try await HaapiAccessorBuilder(
                haapiConfiguration: configuration(server, clientID: "haapi-dcr-template", method: ClientAuthenticationMethodSecret(secret))
            )
            .setDCRConfiguration(configuration: dcr).setStorage(storage).setTransport(try transport.make()).build()
        }
    }

    /// Logs the demo user in, choosing username/password at a selector.
    func login(_ manager: HaapiManager) async throws -> OAuthAuthorizationResponseStep {
        var result = await manager.start(parameters: OAuthAuthorizationParameters(scopes: ["openid"], state: "e2e-state"))
        for _ in 0..<8 {
            switch result {
            case .representation(let selector as AuthenticatorSelectorStep):
                let option = try #require(selector.authenticators.first { $0.type == "html-form" })
                result = await manager.submit(option.action)
            case .representation(let form as InteractiveFormStep):
                let login = try #require(form.actions.first { $0.kind == .login }?.form)
                result = await manager.submitForm(login, parameters: ["userName": SeedData.username, "password": "Password1"])
            case .representation(let done as OAuthAuthorizationResponseStep):
                return done
            default:
                Issue.record("unexpected step: \(result)")
                throw HaapiError.illegalState(message: "unexpected step")
            }
        }
        throw HaapiError.illegalState(message: "the flow did not end")
    }

    @Test(arguments: Strategy.allCases, Transport.allCases)
    func fullLoginRefreshAndRevocation(_ strategy: Strategy, _ transport: Transport) async throws {
        try await RunningServer.with { server in
            let storage = InMemoryStorage()
            let accessor = try await accessor(strategy, server, storage: storage, transport: transport)
            defer { accessor.close() }
            let manager = accessor.haapiManager
            let done = try await login(manager)
            #expect(done.oauthAuthorizationResponseProperties.state == "e2e-state")
            #expect(done.oauthAuthorizationResponseProperties.iss == server.issuer.absoluteString)
            let code = try #require(done.oauthAuthorizationResponseProperties.code)
            // The code is exchanged with the flow's key: tokens bound to it.
            guard case .successfulToken(let tokens) = await accessor.oAuthTokenManager.fetchAccessToken(with: code, dpop: manager.dpop)
            else {
                Issue.record("\(strategy): the code exchange failed")
                return
            }
            #expect(tokens.isDPoPBound)
            let claims = try await server.state.verifyAccessToken(tokens.accessToken)
            #expect(claims?.subject == SeedData.username)
            #expect(claims?.jkt == manager.dpop?.thumbprint)
            if strategy == .dcr { #expect(claims?.clientId.hasPrefix("haapi-dcr-template") == false) }
            // Refresh with the stored key, then revoke, then the refresh token is dead.
            guard
                case .successfulToken(let refreshed) = await accessor.oAuthTokenManager.refreshAccessToken(
                    with: try #require(tokens.refreshToken))
            else {
                Issue.record("\(strategy): refresh failed")
                return
            }
            let refreshToken = try #require(refreshed.refreshToken)
            guard case .success = await accessor.oAuthTokenManager.revokeRefreshToken(with: refreshToken) else {
                Issue.record("\(strategy): revocation failed")
                return
            }
            if case .successfulToken = await accessor.oAuthTokenManager.refreshAccessToken(with: refreshToken, dpop: manager.dpop) {
                Issue.record("\(strategy): a revoked refresh token still works")
            }
        }
    }
}
