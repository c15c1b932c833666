import Crypto
import Foundation
import HaapiDriver
import HaapiServerTesting
import HaapiTesting
import OAuthCore
import OAuthTransportNIO
import Testing

@testable import HaapiDevServer

// MARK: Helpers

private enum OAuthTestError: Error { case unexpected(String) }

extension RunningServer {
    var http: AsyncHTTPClientTransport { get throws { try AsyncHTTPClientTransport() } }
    func endpoint(_ path: String) -> URL { issuer.appendingPathComponent(path) }
    var tokenURL: URL { endpoint("/oauth/token") }

    func client(_ id: String) async throws -> ClientRecord {
        guard let client = try await state.store.get(ClientRecord.self, kind: "client", id: id) else {
            throw OAuthTestError.unexpected("no client \(id)")
        }
        return client
    }

    func secret(_ id: String) async throws -> String {
        guard let secret = try await client(id).clientSecret else { throw OAuthTestError.unexpected("no secret for \(id)") }
        return secret
    }

    /// The haapi-jwt client's private key, as the seeds stored it.
    func jwtClientKey() async throws -> JWSSigningKey {
        guard let jwk = try await state.store.get(JWK.self, kind: "client-key", id: "haapi-jwt") else {
            throw OAuthTestError.unexpected("no client key")
        }
        return try JWSSigningKey(jwk: jwk)
    }

    func post(_ path: String, _ parameters: [(String, String)], headers: HeaderFields = [:]) async throws -> TransportResponse {
        try await http.send(.form(endpoint(path), parameters: parameters, headers: headers))
    }

    func requestToken(_ grant: TokenGrant, _ authentication: ClientAuthentication, dpop: Dpop? = nil) async throws -> TokenEndpointResponse
    {
        try await TokenEndpointClient(endpoint: tokenURL, clientAuthentication: authentication, transport: try http, dpop: dpop)
            .requestToken(grant).result
    }

    /// Stores an authorization code as the HAAPI flow engine does.
    func issueCode(
        client: String = "browser-app", redirectUri: String = "http://127.0.0.1/callback",
        scope: [String] = ["openid", "profile", "email"],
        pkce: PKCE? = nil, dpopJkt: String? = nil, nonce: String? = "n-0S6"
    ) async throws -> String {
        let code = SeedData.randomToken()
        let record = AuthorizationCodeRecord(
            clientId: client, redirectUri: redirectUri, scope: scope, username: "demo", nonce: nonce, codeChallenge: pkce?.challenge,
            codeChallengeMethod: pkce.map { _ in "S256" }, dpopJkt: dpopJkt, authTime: Date(timeIntervalSince1970: 1_700_000_000))
        try await state.store.put(
            record, kind: AuthorizationCodeRecord.kind, id: code, expiresAt: Date().addingTimeInterval(AuthorizationCodeRecord.lifetime))
        return code
    }

    func userinfo(_ token: String, scheme: String = "Bearer", dpop: Dpop? = nil) async throws -> TransportResponse {
        let request = TransportRequest(url: endpoint("/oauth/userinfo"), headers: ["Authorization": "\(scheme) \(token)"])
        if let dpop { return try await DPoPTransport(base: try http, dpop: dpop).send(request) }
        return try await http.send(request)
    }

    func serverKeys() async throws -> JWKSet { try JWKSet(json: try await get("/oauth/jwks").body) }
}

private func tokens(_ result: TokenEndpointResponse, sourceLocation: SourceLocation = #_sourceLocation) throws -> TokenSuccessResponse {
    switch result {
    case .success(let tokens): return tokens
    case .failure(let error):
        Issue.record("expected tokens, got \(error.error): \(error.serverDescription ?? "")", sourceLocation: sourceLocation)
        throw error
    }
}

private func failure(_ result: TokenEndpointResponse) -> OAuthErrorResponse? {
    if case .failure(let error) = result { return error }
    return nil
}

private func json(_ response: TransportResponse) -> JSONValue { (try? JSONValue(parsing: response.body)) ?? .null }

private func claims(_ jwt: String) throws -> JWTClaims { try JWTClaims(json: try CompactJWS(jwt).payload) }

/// A private_key_jwt assertion with chosen claims.
private func assertion(key: JWSSigningKey, clientID: String = "haapi-jwt", audience: String, jti: String = UUID().uuidString) throws
    -> String
{
    let now = Int(Date().timeIntervalSince1970)
    let claims: JSONValue = [
        "iss": .string(clientID), "sub": .string(clientID), "aud": .string(audience), "jti": .string(jti),
        "iat": .integer(now), "exp": .integer(now + 60),
    ]
    return try CompactJWS.sign(payload: claims.serialized(), header: JOSEHeader(algorithm: key.algorithm, typ: "JWT"), key: key)
}

private func uniqueName() -> String { "oauth-test-\(UUID().uuidString)" }

private let haapiScope = SeedData.haapiScope

// MARK: Tests

@Suite("OAuth endpoints of the development server")
struct OAuthEndpointTests {
    // MARK: Client authentication

    @Test func clientSecretBasicAndPostAuthenticateAndWrongSecretsAreRefused() async throws {
        try await RunningServer.with { server in
            let secret = try await server.secret("haapi-secret")
            for authentication in [
                ClientAuthentication.clientSecretBasic(clientID: "haapi-secret", secret: secret),
                .clientSecretPost(clientID: "haapi-secret", secret: secret),
            ] {
                let ok = try tokens(try await server.requestToken(.clientCredentials(scope: "openid"), authentication))
                #expect(ok.tokenType == "Bearer")
                #expect(try await server.state.verifyAccessToken(ok.accessToken)?.clientId == "haapi-secret")
            }
            for authentication in [
                ClientAuthentication.clientSecretBasic(clientID: "haapi-secret", secret: secret + "x"),
                .clientSecretPost(clientID: "haapi-secret", secret: "wrong"),
                .clientSecretBasic(clientID: "no-such-client", secret: secret),
                .none(clientID: "haapi-secret"),
            ] {
                let refused = failure(try await server.requestToken(.clientCredentials(scope: nil), authentication))
                #expect(refused?.error == "invalid_client", "\(authentication.methodName)")
                #expect(refused?.statusCode == 401)
            }
            // Basic is answered with a Basic challenge; two methods at once are a bad request.
            let basic = try await server.post(
                "/oauth/token", [("grant_type", "client_credentials")],
                headers: ["Authorization": "Basic " + Data("haapi-secret:nope".utf8).base64EncodedString()])
            #expect(basic.status == 401)
            #expect(basic.headers["WWW-Authenticate"]?.hasPrefix("Basic") == true)
            #expect(basic.headers["Cache-Control"] == "no-store")
            let both = try await server.post(
                "/oauth/token", [("grant_type", "client_credentials"), ("client_id", "haapi-secret"), ("client_secret", secret)],
                headers: ["Authorization": "Basic " + Data("haapi-secret:\(secret)".utf8).base64EncodedString()])
            #expect(json(both)["error"] == "invalid_request")
            // Scopes outside the client's are refused; dcr is for the template client only.
            let basicAuth = ClientAuthentication.clientSecretBasic(clientID: "haapi-secret", secret: secret)
            #expect(failure(try await server.requestToken(.clientCredentials(scope: "admin"), basicAuth))?.error == "invalid_scope")
            #expect(failure(try await server.requestToken(.clientCredentials(scope: "dcr"), basicAuth))?.error == "invalid_scope")
            #expect(
                failure(try await server.requestToken(.other(grantType: "password", parameters: [:]), basicAuth))?.error
                    == "unsupported_grant_type")
        }
    }

    @Test func privateKeyJWTAuthenticatesAndBadAssertionsAreRefused() async throws {
        try await RunningServer.with { server in
            let key = try await server.jwtClientKey()
            let ok = try tokens(
                try await server.requestToken(.clientCredentials(scope: "openid"), try .privateKeyJWT(clientID: "haapi-jwt", key: key)))
            #expect(try await server.state.verifyAccessToken(ok.accessToken)?.clientId == "haapi-jwt")

            func send(_ assertion: String) async throws -> TransportResponse {
                try await server.post(
                    "/oauth/token",
                    [
                        ("grant_type", "client_credentials"), ("client_id", "haapi-jwt"),
                        ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
                        ("client_assertion", assertion),
                    ])
            }
            // The issuer is an accepted audience too.
            #expect(try await send(try assertion(key: key, audience: server.issuer.absoluteString)).status == 200)
            // Wrong audience.
            let elsewhere = try await send(try assertion(key: key, audience: "https://elsewhere.example/oauth/token"))
            #expect(elsewhere.status == 401)
            #expect(json(elsewhere)["error"] == "invalid_client")
            // A replayed jti.
            let once = try assertion(key: key, audience: server.tokenURL.absoluteString)
            #expect(try await send(once).status == 200)
            let replay = try await send(once)
            #expect(replay.status == 401)
            #expect(json(replay)["error_description"]?.stringValue?.contains("replay") == true)
            // A key the client did not register.
            let stranger = JWSSigningKey.es256(P256.Signing.PrivateKey())
            #expect(
                json(try await send(try assertion(key: stranger, audience: server.tokenURL.absoluteString)))["error"] == "invalid_client")
            // iss/sub naming another client.
            let mismatch = try await send(try assertion(key: key, clientID: "haapi-secret", audience: server.tokenURL.absoluteString))
            #expect(json(mismatch)["error"] == "invalid_client")
        }
    }

    @Test func publicClientsUseOnlyTheAuthorizationCodeGrant() async throws {
        try await RunningServer.with { server in
            let refused = failure(try await server.requestToken(.clientCredentials(scope: nil), .none(clientID: "browser-app")))
            #expect(refused?.error == "unauthorized_client")
            // An attestation client needs a CAT for client_credentials.
            let attested = failure(
                try await server.requestToken(.clientCredentials(scope: haapiScope), .none(clientID: "haapi-attested"), dpop: try Dpop()))
            #expect(attested?.error == "invalid_client")
        }
    }

    // MARK: HAAPI access tokens

    @Test func haapiTokenIsDPoPBoundAndNeedsAProof() async throws {
        try await RunningServer.with { server in
            let authentication = ClientAuthentication.clientSecretBasic(
                clientID: "haapi-secret", secret: try await server.secret("haapi-secret"))
            let dpop = try Dpop()
            let haapi = try tokens(try await server.requestToken(.clientCredentials(scope: haapiScope), authentication, dpop: dpop))
            #expect(haapi.tokenType == "DPoP")
            #expect(haapi.expiresIn == server.state.configuration.haapiTokenLifetime)
            let jwt = try VerifiedJWT(
                haapi.accessToken, keys: try await server.serverKeys(), options: JWTValidationOptions(issuer: server.issuer.absoluteString))
            #expect(jwt.claims.all["cnf"]?["jkt"]?.stringValue == dpop.thumbprint)
            #expect(jwt.claims[string: "scope"] == haapiScope)
            #expect(jwt.jws.header.typ == "at+jwt")

            let missing = failure(try await server.requestToken(.clientCredentials(scope: haapiScope), authentication))
            #expect(missing?.error == "invalid_dpop_proof")
            #expect(missing?.serverDescription == "Missing DPoP Proof Token")
            // A proof for another URL, and a replayed proof.
            let basic = "Basic " + Data("haapi-secret:\(try await server.secret("haapi-secret"))".utf8).base64EncodedString()
            let form = [("grant_type", "client_credentials"), ("scope", haapiScope)]
            let wrongURL = try dpop.proof(method: "POST", url: server.endpoint("/oauth/other"))
            let forged = try await server.post("/oauth/token", form, headers: ["Authorization": basic, "DPoP": wrongURL])
            #expect(json(forged)["error"] == "invalid_dpop_proof")
            let proof = try dpop.proof(method: "POST", url: server.tokenURL)
            #expect(try await server.post("/oauth/token", form, headers: ["Authorization": basic, "DPoP": proof]).status == 200)
            let replayed = try await server.post("/oauth/token", form, headers: ["Authorization": basic, "DPoP": proof])
            #expect(json(replayed)["error"] == "invalid_dpop_proof")
        }
    }

    @Test func dpopNoncesAreRequiredWhenConfigured() async throws {
        try await RunningServer.with(DevServerConfiguration(requiresDPoPNonce: true)) { server in
            let secret = try await server.secret("haapi-secret")
            let basic = "Basic " + Data("haapi-secret:\(secret)".utf8).base64EncodedString()
            let dpop = try Dpop()
            let bare = try await server.post(
                "/oauth/token", [("grant_type", "client_credentials"), ("scope", haapiScope)],
                headers: ["Authorization": basic, "DPoP": try dpop.proof(method: "POST", url: server.tokenURL, nonce: .omitted)])
            #expect(bare.status == 400)
            #expect(json(bare)["error"] == "use_dpop_nonce")
            let nonce = try #require(bare.headers["DPoP-Nonce"])
            #expect(nonce == (try await server.state.currentNonce()))

            // The real client retries once with the nonce.
            let client = TokenEndpointClient(
                endpoint: server.tokenURL, clientAuthentication: .clientSecretBasic(clientID: "haapi-secret", secret: secret),
                transport: try server.http, dpop: try Dpop())
            let (result, response) = try await client.requestToken(.clientCredentials(scope: haapiScope))
            #expect(try tokens(result).tokenType == "DPoP")
            #expect(response.headers["DPoP-Nonce"] == nonce)

            // The attestation strategy too: the CAT must survive the nonce retry.
            let manager = try HaapiTokenManager(
                name: uniqueName(), clientID: "haapi-attested", tokenEndpointURL: server.tokenURL,
                strategy: .attestation(InsecureSoftwareAttestationProvider(), dcrFallback: nil),
                clientAuthenticationMethod: ClientAuthenticationMethodNone(), dpop: try Dpop(), transport: try server.http)
            #expect(try await manager.accessToken().tokenType == "DPoP")
            manager.close()
        }
    }

    // MARK: The driver's strategies

    @Test func driverAttestationStrategyGetsAHaapiToken() async throws {
        try await RunningServer.with { server in
            let dpop = try Dpop()
            let manager = try HaapiTokenManager(
                name: uniqueName(), clientID: "haapi-attested", tokenEndpointURL: server.tokenURL,
                strategy: .attestation(InsecureSoftwareAttestationProvider(), dcrFallback: nil),
                clientAuthenticationMethod: ClientAuthenticationMethodNone(), dpop: dpop, transport: try server.http)
            let token = try await manager.accessToken()
            manager.close()
            #expect(token.tokenType == "DPoP")
            let claims = try #require(try await server.state.verifyAccessToken(token.value))
            #expect(claims.clientId == "haapi-attested")
            #expect(claims.jkt == dpop.thumbprint)
            #expect(claims.scope == [haapiScope])
        }
    }

    @Test func attestationEndpointsRefuseBadAnswersAndReusedTokens() async throws {
        try await RunningServer.with { server in
            let provider = InsecureSoftwareAttestationProvider()
            func challenge(_ client: String = "haapi-attested") async throws -> TransportResponse {
                try await server.http.send(
                    TransportRequest(url: URL(string: server.endpoint("/oauth/token/cat").absoluteString + "?client_id=\(client)")!))
            }
            #expect(try await challenge("haapi-secret").status == 400)
            #expect(try await challenge("nobody").status == 400)

            func answer(_ parameters: [(String, String)]) async throws -> TransportResponse {
                try await server.post("/oauth/token/cat", parameters)
            }
            // An answer to another challenge.
            let first = try #require(json(try await challenge())["challenge"]?.stringValue)
            let other = try await provider.challengeResponse(for: "something-else", clientID: "haapi-attested")
            let wrong = try await answer([("client_id", "haapi-attested"), ("challenge", first), ("challenge_response", other)])
            #expect(wrong.status == 400)
            #expect(json(wrong)["error"] == "invalid_attestation")
            // The challenge was single use: even a right answer now fails.
            let late = try await provider.challengeResponse(for: first, clientID: "haapi-attested")
            #expect(
                json(try await answer([("client_id", "haapi-attested"), ("challenge", first), ("challenge_response", late)]))["error"]
                    == "invalid_attestation")
            // A signature that is not the header key's.
            let second = try #require(json(try await challenge())["challenge"]?.stringValue)
            let good = try await provider.challengeResponse(for: second, clientID: "haapi-attested")
            let parts = good.split(separator: ".")
            let tampered = parts[0] + "." + parts[1] + "." + Base64URL.encode(Data(repeating: 7, count: 64))
            #expect(
                json(try await answer([("client_id", "haapi-attested"), ("challenge", second), ("challenge_response", String(tampered))]))[
                    "error"] == "invalid_attestation")

            // A good answer gives a CAT, good for one token.
            let third = try #require(json(try await challenge())["challenge"]?.stringValue)
            let accepted = try await answer([
                ("client_id", "haapi-attested"), ("challenge", third),
                ("challenge_response", try await provider.challengeResponse(for: third, clientID: "haapi-attested")),
            ])
            let cat = try #require(json(accepted)["cat"]?.stringValue)
            let dpop = try Dpop()
            func useCAT() async throws -> TokenEndpointResponse {
                try await TokenEndpointClient(
                    endpoint: server.tokenURL, clientAuthentication: .none(clientID: "haapi-attested"), transport: try server.http,
                    dpop: dpop
                )
                .requestToken(
                    .clientCredentials(scope: haapiScope),
                    additionalParameters: [
                        ("client_assertion_type", "urn:se:curity:attestation:client"), ("client_assertion", cat),
                    ]
                ).result
            }
            #expect(try tokens(try await useCAT()).tokenType == "DPoP")
            #expect(failure(try await useCAT())?.error == "invalid_client")
        }
    }

    @Test func driverClientCredentialsStrategiesGetHaapiTokens() async throws {
        try await RunningServer.with { server in
            let methods: [(String, any ClientAuthenticationMethod)] = [
                ("haapi-secret", ClientAuthenticationMethodSecret(try await server.secret("haapi-secret"))),
                ("haapi-jwt", try ClientAuthenticationMethodJWTAsymmetric(key: try await server.jwtClientKey())),
            ]
            for (clientID, method) in methods {
                let dpop = try Dpop()
                let manager = try HaapiTokenManager(
                    name: uniqueName(), clientID: clientID, tokenEndpointURL: server.tokenURL, strategy: .clientCredentials,
                    clientAuthenticationMethod: method, dpop: dpop, transport: try server.http)
                let token = try await manager.accessToken()
                manager.close()
                let claims = try #require(try await server.state.verifyAccessToken(token.value))
                #expect(claims.clientId == clientID)
                #expect(claims.jkt == dpop.thumbprint)
            }
        }
    }

    @Test func driverDCRStrategyRegistersOnceThenReuses() async throws {
        try await RunningServer.with { server in
            let storage = InMemoryStorage()
            let configuration = DCRConfiguration(
                templateClientId: "haapi-dcr-template", clientRegistrationEndpointUrl: server.endpoint("/oauth/register"), storage: storage)
            let method = ClientAuthenticationMethodSecret(try await server.secret("haapi-dcr-template"))
            func token() async throws -> HaapiAccessToken {
                let manager = try HaapiTokenManager(
                    name: uniqueName(), clientID: "haapi-dcr-template", tokenEndpointURL: server.tokenURL, strategy: .dcr(configuration),
                    clientAuthenticationMethod: method, dpop: try Dpop(), transport: try server.http)
                defer { manager.close() }
                return try await manager.accessToken()
            }
            let first = try #require(try await server.state.verifyAccessToken(try await token().value))
            let registered = try await server.state.store.all(ClientRecord.self, kind: "client").filter { $0.value.strategy == .registered }
            #expect(registered.count == 1)
            #expect(first.clientId == registered.first?.id)
            #expect(registered.first?.value.templateClientId == "haapi-dcr-template")
            #expect(registered.first?.value.scope.contains("dcr") == false)
            // A second manager finds the stored client and registers nothing.
            let second = try #require(try await server.state.verifyAccessToken(try await token().value))
            #expect(second.clientId == first.clientId)
            #expect(
                try await server.state.store.all(ClientRecord.self, kind: "client").filter { $0.value.strategy == .registered }.count == 1)
        }
    }

    @Test func registrationNeedsASingleUseInitialToken() async throws {
        try await RunningServer.with { server in
            func register(_ authorization: String?, softwareID: String = "haapi-dcr-template") async throws -> TransportResponse {
                var headers: HeaderFields = ["Content-Type": "application/json"]
                if let authorization { headers["Authorization"] = authorization }
                return try await server.http.send(
                    TransportRequest(
                        method: "POST", url: server.endpoint("/oauth/register"), headers: headers,
                        body: (["software_id": .string(softwareID)] as JSONValue).serialized()))
            }
            let none = try await register(nil)
            #expect(none.status == 401)
            #expect(none.headers["WWW-Authenticate"]?.contains("invalid_token") == true)
            // A token without the dcr scope.
            let plain = try tokens(
                try await server.requestToken(
                    .clientCredentials(scope: "openid"),
                    .clientSecretBasic(clientID: "haapi-secret", secret: try await server.secret("haapi-secret"))))
            #expect(try await register("Bearer \(plain.accessToken)").status == 401)

            let templateAuth = ClientAuthentication.clientSecretBasic(
                clientID: "haapi-dcr-template", secret: try await server.secret("haapi-dcr-template"))
            let initial = try tokens(try await server.requestToken(.clientCredentials(scope: "dcr"), templateAuth)).accessToken
            let notTemplate = try await register("Bearer \(initial)", softwareID: "haapi-secret")
            #expect(notTemplate.status == 400)
            #expect(json(notTemplate)["error"] == "invalid_software_statement")
            let created = try await register("Bearer \(initial)")
            #expect(created.status == 201)
            let body = json(created)
            let clientID = try #require(body["client_id"]?.stringValue)
            let secret = try #require(body["client_secret"]?.stringValue)
            #expect(body["client_id_issued_at"]?.intValue != nil)
            #expect(body["token_endpoint_auth_method"] == "client_secret_basic")
            #expect(body["redirect_uris"] == ["haapi://callback", "http://127.0.0.1/callback"])
            // The initial token was single use.
            #expect(try await register("Bearer \(initial)").status == 401)
            // The new client authenticates with its secret and gets HAAPI tokens.
            let haapi = try tokens(
                try await server.requestToken(
                    .clientCredentials(scope: haapiScope), .clientSecretBasic(clientID: clientID, secret: secret), dpop: try Dpop()))
            #expect(haapi.tokenType == "DPoP")
        }
    }

    // MARK: authorization_code

    @Test func authorizationCodeChecksPKCE() async throws {
        try await RunningServer.with { server in
            let pkce = PKCE()
            let browser = ClientAuthentication.none(clientID: "browser-app")
            let redirect = "http://127.0.0.1/callback"
            // Missing and wrong verifiers.
            let missing = try await server.issueCode(pkce: pkce)
            #expect(
                failure(
                    try await server.requestToken(.authorizationCode(code: missing, redirectURI: redirect, codeVerifier: nil), browser))?
                    .error == "invalid_grant")
            let wrong = try await server.issueCode(pkce: pkce)
            #expect(
                failure(
                    try await server.requestToken(
                        .authorizationCode(code: wrong, redirectURI: redirect, codeVerifier: PKCE().verifier), browser))?.error
                    == "invalid_grant")
            // The right one.
            let code = try await server.issueCode(pkce: pkce)
            let issued = try tokens(
                try await server.requestToken(.authorizationCode(code: code, redirectURI: redirect, codeVerifier: pkce.verifier), browser))
            #expect(issued.tokenType == "Bearer")
            #expect(issued.refreshToken != nil)
            #expect(issued.scope == "openid profile email")
            let idToken = try VerifiedJWT(
                try #require(issued.idToken), keys: try await server.serverKeys(),
                options: JWTValidationOptions(issuer: server.issuer.absoluteString, audience: "browser-app"))
            #expect(idToken.claims.subject == "demo")
            #expect(idToken.claims[string: "nonce"] == "n-0S6")
            #expect(idToken.claims.all["auth_time"]?.intValue == 1_700_000_000)
            #expect(idToken.claims.issuedAt != nil && idToken.claims.expiresAt != nil)
            #expect(try await server.state.verifyAccessToken(issued.accessToken)?.subject == "demo")
        }
    }

    @Test func replayedCodeIsRefusedAndRevokesItsTokens() async throws {
        try await RunningServer.with { server in
            let browser = ClientAuthentication.none(clientID: "browser-app")
            let code = try await server.issueCode()
            let grant = TokenGrant.authorizationCode(code: code, redirectURI: "http://127.0.0.1/callback", codeVerifier: nil)
            let issued = try tokens(try await server.requestToken(grant, browser))
            #expect(try await server.state.verifyAccessToken(issued.accessToken) != nil)
            #expect(failure(try await server.requestToken(grant, browser))?.error == "invalid_grant")
            #expect(try await server.state.verifyAccessToken(issued.accessToken) == nil)
            #expect(
                failure(try await server.requestToken(.refreshToken(try #require(issued.refreshToken)), browser))?.error == "invalid_grant")
            // An unknown code.
            #expect(
                failure(
                    try await server.requestToken(
                        .authorizationCode(code: "nope", redirectURI: "http://127.0.0.1/callback", codeVerifier: nil), browser))?.error
                    == "invalid_grant")
        }
    }

    @Test func codeMustBeExchangedByItsClientWithItsRedirectURI() async throws {
        try await RunningServer.with { server in
            let browser = ClientAuthentication.none(clientID: "browser-app")
            let mismatch = try await server.issueCode()
            #expect(
                failure(
                    try await server.requestToken(
                        .authorizationCode(code: mismatch, redirectURI: "http://127.0.0.1/other", codeVerifier: nil), browser))?.error
                    == "invalid_grant")
            let missing = try await server.issueCode()
            #expect(
                failure(try await server.requestToken(.authorizationCode(code: missing, redirectURI: nil, codeVerifier: nil), browser))?
                    .error == "invalid_grant")
            let otherClient = try await server.issueCode(client: "haapi-secret", redirectUri: "haapi://callback")
            #expect(
                failure(
                    try await server.requestToken(
                        .authorizationCode(code: otherClient, redirectURI: "haapi://callback", codeVerifier: nil), browser))?.error
                    == "invalid_grant")
            // A PKCE verifier for a code without a challenge is a downgrade attempt.
            let noChallenge = try await server.issueCode()
            #expect(
                failure(
                    try await server.requestToken(
                        .authorizationCode(code: noChallenge, redirectURI: "http://127.0.0.1/callback", codeVerifier: PKCE().verifier),
                        browser))?.error == "invalid_grant")
        }
    }

    @Test func tokenBoundCodeNeedsTheSessionKeyAndItsRefreshTokenStaysBound() async throws {
        try await RunningServer.with { server in
            let session = try Dpop()
            let attested = ClientAuthentication.none(clientID: "haapi-attested")
            let redirect = "haapi://callback"
            func exchange(_ dpop: Dpop?) async throws -> TokenEndpointResponse {
                let code = try await server.issueCode(client: "haapi-attested", redirectUri: redirect, dpopJkt: session.thumbprint)
                return try await server.requestToken(
                    .authorizationCode(code: code, redirectURI: redirect, codeVerifier: nil), attested, dpop: dpop)
            }
            let withoutProof = failure(try await exchange(nil))
            #expect(withoutProof?.error == "invalid_dpop_proof")
            #expect(withoutProof?.serverDescription == "Missing DPoP Proof Token")
            #expect(failure(try await exchange(try Dpop()))?.error == "invalid_dpop_proof")
            let issued = try tokens(try await exchange(session))
            #expect(issued.tokenType == "DPoP")
            #expect(try await server.state.verifyAccessToken(issued.accessToken)?.jkt == session.thumbprint)

            // The refresh token keeps the binding; refused attempts do not use it up.
            let refresh = try #require(issued.refreshToken)
            let unbound = failure(try await server.requestToken(.refreshToken(refresh), attested))
            #expect(unbound?.error == "invalid_dpop_proof")
            #expect(
                failure(try await server.requestToken(.refreshToken(refresh), attested, dpop: try Dpop()))?.error == "invalid_dpop_proof")
            let refreshed = try tokens(try await server.requestToken(.refreshToken(refresh), attested, dpop: session))
            #expect(refreshed.tokenType == "DPoP")
            #expect(try await server.state.verifyAccessToken(refreshed.accessToken)?.jkt == session.thumbprint)
        }
    }

    // MARK: refresh_token

    @Test func refreshTokensRotateAndReuseAfterTheGracePeriodRevokesTheGrant() async throws {
        // No grace period: presenting the rotated token again is reuse at once, even while its successor is unused.
        try await RunningServer.with(DevServerConfiguration(refreshTokenRetryGrace: 0)) { server in
            let browser = ClientAuthentication.none(clientID: "browser-app")
            let code = try await server.issueCode()
            let first = try tokens(
                try await server.requestToken(
                    .authorizationCode(code: code, redirectURI: "http://127.0.0.1/callback", codeVerifier: nil), browser))
            let r1 = try #require(first.refreshToken)
            let second = try tokens(try await server.requestToken(.refreshToken(r1), browser))
            let r2 = try #require(second.refreshToken)
            #expect(r2 != r1)
            #expect(second.idToken != nil)
            // Narrowing the scope works; widening it does not.
            #expect(
                failure(try await server.requestToken(.refreshToken(r2, scope: "openid offline_access"), browser))?.error == "invalid_scope"
            )
            // Another client cannot use it.
            let secret = try await server.secret("haapi-secret")
            #expect(
                failure(try await server.requestToken(.refreshToken(r2), .clientSecretBasic(clientID: "haapi-secret", secret: secret)))?
                    .error == "invalid_grant")
            // Reusing the rotated token revokes the whole grant.
            let reused = failure(try await server.requestToken(.refreshToken(r1), browser))
            #expect(reused?.error == "invalid_grant")
            #expect(failure(try await server.requestToken(.refreshToken(r2), browser))?.error == "invalid_grant")
            #expect(try await server.state.verifyAccessToken(first.accessToken) == nil)
            #expect(try await server.state.verifyAccessToken(second.accessToken) == nil)
        }
    }

    /// A DPoP-bound refresh token of the public browser client, from a code exchanged with `session`.
    private static func boundRefreshToken(_ server: RunningServer, session: Dpop) async throws -> TokenSuccessResponse {
        let code = try await server.issueCode()
        return try tokens(
            try await server.requestToken(
                .authorizationCode(code: code, redirectURI: "http://127.0.0.1/callback", codeVerifier: nil),
                .none(clientID: "browser-app"), dpop: session))
    }

    /// Item 4 of the security review: a retry of a rotation whose answer was lost gets that same
    /// answer (the successor and its access token), and the successor keeps working; the
    /// rotated token presented once its successor was used revokes the grant.
    @Test func refreshRetriedAfterALostAnswerGetsTheSameAnswerAndKillsNothing() async throws {
        try await RunningServer.with { server in
            let browser = ClientAuthentication.none(clientID: "browser-app")
            let session = try Dpop()
            let r1 = try #require(try await Self.boundRefreshToken(server, session: session).refreshToken)
            // The answer with r2 never reaches the client, which presents r1 again.
            let lost = try tokens(try await server.requestToken(.refreshToken(r1), browser, dpop: session))
            let retried = try tokens(try await server.requestToken(.refreshToken(r1), browser, dpop: session))
            #expect(retried.refreshToken == lost.refreshToken && retried.accessToken == lost.accessToken)
            let r2 = try #require(lost.refreshToken)
            let next = try tokens(try await server.requestToken(.refreshToken(r2), browser, dpop: session))
            #expect(try await server.state.verifyAccessToken(next.accessToken) != nil)
            // r1 again, now that its successor was used: reuse, the whole grant goes.
            #expect(failure(try await server.requestToken(.refreshToken(r1), browser, dpop: session))?.error == "invalid_grant")
            #expect(try await server.state.verifyAccessToken(next.accessToken) == nil)

            let other = try Dpop()
            let s1 = try #require(try await Self.boundRefreshToken(server, session: session).refreshToken)
            let s2 = try tokens(try await server.requestToken(.refreshToken(s1), browser, dpop: session))
            #expect(failure(try await server.requestToken(.refreshToken(s1), browser, dpop: other)) != nil)
            #expect(
                failure(try await server.requestToken(.refreshToken(try #require(s2.refreshToken)), browser, dpop: session))?.error
                    == "invalid_grant")
        }
    }

    @Test func reuseAfterTheSuccessorWasUsedRevokesTheGrantEvenWithinTheGracePeriod() async throws {
        try await RunningServer.with { server in
            let browser = ClientAuthentication.none(clientID: "browser-app")
            let session = try Dpop()
            let r1 = try #require(try await Self.boundRefreshToken(server, session: session).refreshToken)
            let second = try tokens(try await server.requestToken(.refreshToken(r1), browser, dpop: session))
            let third = try tokens(try await server.requestToken(.refreshToken(try #require(second.refreshToken)), browser, dpop: session))
            let reused = failure(try await server.requestToken(.refreshToken(r1), browser, dpop: session))
            #expect(reused?.error == "invalid_grant")
            #expect(reused?.serverDescription == "the refresh token was already used; every token of the grant is revoked")
            #expect(
                failure(try await server.requestToken(.refreshToken(try #require(third.refreshToken)), browser, dpop: session))?.error
                    == "invalid_grant")
            #expect(try await server.state.verifyAccessToken(second.accessToken) == nil)
            #expect(try await server.state.verifyAccessToken(third.accessToken) == nil)
        }
    }

    @Test func reuseWithAnotherKeyWithinTheGracePeriodRevokesTheGrant() async throws {
        try await RunningServer.with { server in
            let browser = ClientAuthentication.none(clientID: "browser-app")
            let session = try Dpop()
            let r1 = try #require(try await Self.boundRefreshToken(server, session: session).refreshToken)
            let second = try tokens(try await server.requestToken(.refreshToken(r1), browser, dpop: session))
            // Someone else, with the stolen r1 but not the key, is not retrying.
            #expect(failure(try await server.requestToken(.refreshToken(r1), browser, dpop: try Dpop()))?.error == "invalid_grant")
            #expect(
                failure(try await server.requestToken(.refreshToken(try #require(second.refreshToken)), browser, dpop: session))?.error
                    == "invalid_grant")
            #expect(try await server.state.verifyAccessToken(second.accessToken) == nil)
        }
    }

    @Test func refreshTokenRecordsStoredBeforeRetriesStillWork() async throws {
        try await RunningServer.with { server in
            let family = "legacy-family"
            try await server.state.store.put(
                GrantFamilyRecord(clientId: "browser-app", revoked: false, accessTokens: [:]), kind: GrantFamilyRecord.kind, id: family)
            // A record as the server wrote it before usedAt and successor existed.
            let legacy: JSONValue = [
                "clientId": "browser-app", "username": "demo", "scope": ["openid"], "family": .string(family),
                "authTime": 1_700_000_000, "used": false, "expiresAt": .integer(Int(Date().timeIntervalSince1970) + 3600),
            ]
            let token = "legacy-refresh-token"
            try await server.state.store.put(legacy, kind: RefreshTokenRecord.kind, id: OAuthSupport.tokenID(token))
            let refreshed = try tokens(try await server.requestToken(.refreshToken(token), .none(clientID: "browser-app")))
            #expect(refreshed.refreshToken != nil)
        }
    }

    // MARK: Request log

    @Test func requestLogHasALinePerAnsweredRequestWithTheGrantTypeOfTokenRequests() async throws {
        let log = LogLines()
        try await RunningServer.with(DevServerConfiguration(requestLog: log.log)) { server in
            #expect(try await server.get("/.well-known/openid-configuration").status == 200)
            #expect(try await server.get("/no-such-page").status == 404)
            // The endpoint still reads the body the log read the grant type from.
            let secret = try await server.secret("haapi-secret")
            _ = try tokens(
                try await server.requestToken(
                    .clientCredentials(scope: "openid"), .clientSecretPost(clientID: "haapi-secret", secret: secret)))
            #expect(
                failure(try await server.requestToken(.refreshToken("no-such-token"), .none(clientID: "browser-app")))?.error
                    == "invalid_grant")
            #expect(try await server.post("/oauth/token", [("code", "x")]).status == 400)
            // A grant type cannot write a line of its own; a body too large to read is refused.
            #expect(try await server.post("/oauth/token", [("grant_type", "x\notp: 123456 for demo")]).status == 400)
            let tooLarge = try await server.post(
                "/oauth/token", [("grant_type", "client_credentials"), ("padding", String(repeating: "a", count: 70_000))])
            #expect(tooLarge.status == 400)
            #expect(json(tooLarge)["error_description"]?.stringValue == "the request body is too large or unreadable")
            // The query, which may hold codes and nonces, is left out.
            let withQuery = try #require(URL(string: server.issuer.absoluteString + "/oauth/jwks?secret=1"))
            #expect(try await server.http.send(TransportRequest(url: withQuery)).status == 200)
            #expect(
                log.lines == [
                    "request: GET /.well-known/openid-configuration 200",
                    "request: GET /no-such-page 404",
                    "request: POST /oauth/token grant_type=client_credentials 200",
                    "request: POST /oauth/token grant_type=refresh_token 400",
                    "request: POST /oauth/token 400",
                    "request: POST /oauth/token grant_type=x%0Aotp:%20123456%20for%20demo 400",
                    "request: POST /oauth/token 400",
                    "request: GET /oauth/jwks 200",
                ])
        }
    }

    // MARK: userinfo, revocation, end session

    @Test func userinfoAnswersForAValidTokenAndRevocationEndsIt() async throws {
        try await RunningServer.with { server in
            let browser = ClientAuthentication.none(clientID: "browser-app")
            let code = try await server.issueCode()
            let issued = try tokens(
                try await server.requestToken(
                    .authorizationCode(code: code, redirectURI: "http://127.0.0.1/callback", codeVerifier: nil), browser))
            let info = try await server.userinfo(issued.accessToken)
            #expect(info.status == 200)
            let body = json(info)
            #expect(body["sub"] == "demo")
            #expect(body["name"] == "Demo User")
            #expect(body["email"] == "demo@example.test")
            #expect(body["preferred_username"] == "demo")

            func revoke(_ token: String, hint: String?) async throws -> TransportResponse {
                var parameters = [("token", token), ("client_id", "browser-app")]
                if let hint { parameters.append(("token_type_hint", hint)) }
                return try await server.post("/oauth/revoke", parameters)
            }
            #expect(try await revoke(issued.accessToken, hint: "access_token").status == 200)
            let after = try await server.userinfo(issued.accessToken)
            #expect(after.status == 401)
            #expect(after.headers["WWW-Authenticate"]?.contains("error=\"invalid_token\"") == true)
            // Revoking the refresh token (with the wrong hint) ends the grant.
            #expect(try await revoke(try #require(issued.refreshToken), hint: "access_token").status == 200)
            #expect(
                failure(try await server.requestToken(.refreshToken(try #require(issued.refreshToken)), browser))?.error == "invalid_grant")
            // Unknown tokens are fine; unauthenticated confidential clients are not.
            #expect(try await revoke("no-such-token", hint: nil).status == 200)
            let unauthenticated = try await server.post("/oauth/revoke", [("token", "x"), ("client_id", "haapi-secret")])
            #expect(unauthenticated.status == 401)
            #expect(
                try await server.post("/oauth/revoke", [("token", "x"), ("client_id", "browser-app"), ("token_type_hint", "id_token")])
                    .status == 400)
            // Other refusals.
            #expect(try await server.userinfo("not-a-token").headers["WWW-Authenticate"]?.contains("invalid_token") == true)
            let haapiToken = try server.state.issueAccessToken(
                clientId: "haapi-secret", subject: nil, scope: [haapiScope], jkt: nil, lifetime: 60)
            #expect(try await server.userinfo(haapiToken).status == 403)
        }
    }

    @Test func userinfoNeedsTheBoundKeyForDPoPTokens() async throws {
        try await RunningServer.with { server in
            let session = try Dpop()
            let code = try await server.issueCode(pkce: nil)
            let issued = try tokens(
                try await server.requestToken(
                    .authorizationCode(code: code, redirectURI: "http://127.0.0.1/callback", codeVerifier: nil),
                    .none(clientID: "browser-app"), dpop: session))
            #expect(issued.tokenType == "DPoP")
            #expect(try await server.userinfo(issued.accessToken, scheme: "DPoP", dpop: session).status == 200)
            let bearer = try await server.userinfo(issued.accessToken)
            #expect(bearer.status == 401)
            #expect(bearer.headers["WWW-Authenticate"]?.contains("invalid_token") == true)
            let otherKey = try await server.userinfo(issued.accessToken, scheme: "DPoP", dpop: try Dpop())
            #expect(otherKey.status == 401)
            #expect(otherKey.headers["WWW-Authenticate"]?.contains("invalid_dpop_proof") == true)
            let noProof = try await server.userinfo(issued.accessToken, scheme: "DPoP")
            #expect(noProof.status == 401)
            // An expired token gets the renewal signal the HAAPI driver relies on.
            let expired = try server.state.issueAccessToken(
                clientId: "browser-app", subject: "demo", scope: ["openid"], jkt: session.thumbprint, lifetime: -30)
            let stale = try await server.userinfo(expired, scheme: "DPoP", dpop: session)
            #expect(stale.status == 401)
            #expect(stale.headers["WWW-Authenticate"]?.hasPrefix("DPoP error=\"invalid_token\"") == true)
        }
    }

    @Test func endSessionRedirectsToARegisteredURIAndEndsTheGrant() async throws {
        try await RunningServer.with { server in
            let browser = ClientAuthentication.none(clientID: "browser-app")
            let code = try await server.issueCode()
            let issued = try tokens(
                try await server.requestToken(
                    .authorizationCode(code: code, redirectURI: "http://127.0.0.1/callback", codeVerifier: nil), browser))
            let idToken = try #require(issued.idToken)
            func endSession(_ query: [(String, String)]) async throws -> TransportResponse {
                try await server.http.send(
                    TransportRequest(
                        url: URL(string: server.endpoint("/oauth/end-session").absoluteString + "?" + FormURLEncoding.encode(query))!))
            }
            let unregistered = try await endSession([("id_token_hint", idToken), ("post_logout_redirect_uri", "https://evil.example/")])
            #expect(unregistered.status == 400)
            let forged = try await endSession([("id_token_hint", idToken + "x"), ("post_logout_redirect_uri", "http://127.0.0.1/callback")])
            #expect(forged.status == 400)
            let ended = try await endSession([
                ("id_token_hint", idToken), ("post_logout_redirect_uri", "http://127.0.0.1/callback"), ("state", "s1"),
            ])
            #expect(ended.status == 303)
            #expect(ended.headers["Location"] == "http://127.0.0.1/callback?state=s1")
            #expect(try await server.state.verifyAccessToken(issued.accessToken) == nil)
            #expect(
                failure(try await server.requestToken(.refreshToken(try #require(issued.refreshToken)), browser))?.error == "invalid_grant")
            #expect(try await endSession([]).status == 200)
        }
    }
}
