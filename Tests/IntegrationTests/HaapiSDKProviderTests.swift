import Foundation
import HaapiDriver
import HaapiSDK
import OAuthCore
import OAuthTransportNIO
import Testing

/// The driver's and the SDK's token paths against the real OpenID Provider.
@Suite(
    "HAAPI driver and OAuthTokenManager against a real OpenID Provider (Glewlwyd)",
    .enabled(if: ProviderSettings.load("HAAPI_TEST_OP_ENV") != nil, "needs Scripts/test.sh to start the provider"))
struct HaapiSDKProviderTests {
    let settings = ProviderSettings.load("HAAPI_TEST_OP_ENV")!

    func discovery() async throws -> JSONValue {
        let response = try await AsyncHTTPClientTransport().send(TransportRequest(url: URL(string: try settings["OP_DISCOVERY"])!))
        return try JSONValue(parsing: response.body)
    }

    func providerKeys() async throws -> JWKSet {
        let uri = try #require(try await discovery()["jwks_uri"]?.stringValue)
        return try JWKSet(json: try await AsyncHTTPClientTransport().send(TransportRequest(url: URL(string: uri)!)).body)
    }

    func configuration(clientID: String, method: any ClientAuthenticationMethod, revocation: URL? = nil) throws -> HaapiConfiguration {
        let issuer = try #require(URL(string: try settings["OP_ISSUER"]))
        return HaapiConfiguration(
            name: "glewlwyd-\(UUID().uuidString)", clientId: clientID, baseURL: issuer,
            tokenEndpointURL: try settings.tokenEndpoint, authorizationEndpointURL: URL(string: try settings["OP_AUTHORIZATION_ENDPOINT"])!,
            appRedirect: try settings["OP_REDIRECT_URI"], revocationEndpointURL: revocation, clientAuthenticationMethod: method)
    }

    @Test func clientCredentialsStrategyGetsDPoPBoundHaapiTokens() async throws {
        let keyPEM = try String(contentsOfFile: try settings["OP_JWT_CLIENT_KEY"], encoding: .utf8)
        let clients: [(String, any ClientAuthenticationMethod)] = [
            (try settings["OP_CONF_CLIENT_ID"], ClientAuthenticationMethodSecret(try settings["OP_CONF_CLIENT_SECRET"])),
            (
                try settings["OP_JWT_CLIENT_ID"],
                try ClientAuthenticationMethodJWTAsymmetric(
                    pem: keyPEM, signatureAlgorithm: .es256, keyID: try settings["OP_JWT_CLIENT_KID"])
            ),
        ]
        let keys = try await providerKeys()
        for (clientID, method) in clients {
            let configuration = try configuration(clientID: clientID, method: method)
            let manager = try HaapiTokenManager(
                name: configuration.name, clientID: clientID, tokenEndpointURL: configuration.tokenEndpointURL,
                strategy: .clientCredentials, clientAuthenticationMethod: method, dpop: try Dpop(),
                transport: try AsyncHTTPClientTransport())
            let token = try await manager.accessToken()
            #expect(token.tokenType == "DPoP", "\(clientID)")
            let jwt = try VerifiedJWT(token.value, keys: keys, options: JWTValidationOptions(issuer: try settings["OP_ISSUER"]))
            #expect(jwt.claims.all["cnf"]?["jkt"]?.stringValue == manager.dpop?.thumbprint)
            #expect(jwt.claims.all["scope"]?.stringValue?.contains(HaapiTokenManager.haapiScope) == true)
            // Cached: the second call makes no request and gives the same token.
            #expect(try await manager.accessToken() == token)
            manager.close()
        }
    }

    /// Logs alice in with the headless user agent and returns the authorization code.
    func authorizationCode(clientID: String, dpopJKT: String, state: String) throws -> String {
        var components = URLComponents(string: try settings["OP_AUTHORIZATION_ENDPOINT"])!
        components.queryItems = [
            .init(name: "response_type", value: "code"), .init(name: "client_id", value: clientID),
            .init(name: "redirect_uri", value: try settings["OP_REDIRECT_URI"]), .init(name: "scope", value: "openid"),
            .init(name: "state", value: state), .init(name: "nonce", value: UUID().uuidString), .init(name: "dpop_jkt", value: dpopJKT),
        ]
        let redirect = try ProviderBrowser.authorize(components.url!, user: try settings["OP_USER"], password: try settings["OP_PASSWORD"])
            .finalURL
        let items = URLComponents(string: redirect)?.queryItems ?? []
        #expect(items.first { $0.name == "state" }?.value == state)
        return try #require(items.first { $0.name == "code" }?.value, "no code in \(redirect)")
    }

    @Test func boundCodeIsExchangedRefreshedAfterARestartAndRevoked() async throws {
        let revocation = try #require(try await discovery()["revocation_endpoint"]?.stringValue.flatMap(URL.init(string:)))
        let clientID = try settings["OP_CONF_CLIENT_ID"]
        let configuration = try configuration(
            clientID: clientID, method: ClientAuthenticationMethodSecret(try settings["OP_CONF_CLIENT_SECRET"]), revocation: revocation)
        let storage = InMemoryStorage()
        let dpop = try Dpop()
        let code = try authorizationCode(clientID: clientID, dpopJKT: dpop.thumbprint, state: "st-\(UUID().uuidString)")
        let first = try OAuthTokenManager(oauthTokenConfiguration: configuration, storage: storage)
        guard case .successfulToken(let tokens) = await first.fetchAccessToken(with: code, dpop: dpop) else {
            Issue.record("the bound code exchange failed")
            return
        }
        #expect(tokens.isDPoPBound)
        let keys = try await providerKeys()
        #expect(try VerifiedJWT(tokens.accessToken, keys: keys).claims.all["cnf"]?["jkt"]?.stringValue == dpop.thumbprint)
        // The app restarts: a new manager refreshes with the key kept in storage.
        let restarted = try OAuthTokenManager(oauthTokenConfiguration: configuration, storage: storage)
        let refreshToken = try #require(tokens.refreshToken)
        guard case .successfulToken(let refreshed) = await restarted.refreshAccessToken(with: refreshToken) else {
            Issue.record("the bound refresh failed")
            return
        }
        #expect(refreshed.isDPoPBound)
        #expect(try VerifiedJWT(refreshed.accessToken, keys: keys).claims.all["cnf"]?["jkt"]?.stringValue == dpop.thumbprint)
        // Without the key (another storage), the bound refresh token is refused.
        let keyless = try OAuthTokenManager(oauthTokenConfiguration: configuration, storage: InMemoryStorage())
        if case .successfulToken = await keyless.refreshAccessToken(with: try #require(refreshed.refreshToken)) {
            Issue.record("a bound refresh token was refreshed without its key")
        }
        // Revocation (the rotated refresh token), then it no longer refreshes.
        let current = try #require(refreshed.refreshToken)
        guard case .success = await restarted.revokeRefreshToken(with: current) else {
            Issue.record("revocation failed")
            return
        }
        #expect(storage.keys.isEmpty)
        if case .successfulToken = await restarted.refreshAccessToken(with: current, dpop: dpop) {
            Issue.record("a revoked refresh token was refreshed")
        }
    }
}
