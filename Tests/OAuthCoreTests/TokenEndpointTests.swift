import Crypto
import Foundation
import HaapiTesting
import OAuthCore
import Testing

@Suite("Token endpoint client")
struct TokenEndpointTests {
    let endpoint = URL(string: "https://as.example/oauth/token")!
    let ok = json(200, #"{"access_token":"at","token_type":"Bearer","expires_in":3600,"refresh_token":"rt","scope":"a b","extra":{"k":1}}"#)

    func send(_ authentication: ClientAuthentication, _ grant: TokenGrant = .clientCredentials(scope: "s")) async throws -> TransportRequest
    {
        let transport = ScriptedTransport([ok])
        _ = try await TokenEndpointClient(endpoint: endpoint, clientAuthentication: authentication, transport: transport)
            .requestToken(grant, additionalParameters: [("resource", "https://api")])
        return try #require(transport.sent.first)
    }

    @Test func clientSecretBasicFormEncodesBeforeBase64() async throws {
        let request = try await send(.clientSecretBasic(clientID: "my client", secret: "p@ss:wörd"))
        let expected = Data("my+client:p%40ss%3Aw%C3%B6rd".utf8).base64EncodedString()
        #expect(request.headers["Authorization"] == "Basic \(expected)")
        #expect(formParameters(request)["client_secret"] == nil)
        #expect(formParameters(request)["client_id"] == nil)
        #expect(request.method == "POST")
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(request.headers["Accept"] == "application/json")
    }

    @Test func clientSecretPostAndPublicClients() async throws {
        let post = formParameters(try await send(.clientSecretPost(clientID: "c", secret: "s")))
        #expect(post["client_id"] == "c" && post["client_secret"] == "s" && post["resource"] == "https://api")
        for authentication in [ClientAuthentication.none(clientID: "c"), .tlsClientAuth(clientID: "c")] {
            let request = try await send(authentication)
            #expect(formParameters(request)["client_id"] == "c")
            #expect(request.headers["Authorization"] == nil)
            #expect(formParameters(request).keys.sorted() == ["client_id", "grant_type", "resource", "scope"])
        }
    }

    @Test func clientAssertionsAreSigned() async throws {
        let secret = "a-shared-secret-that-is-long-enough-for-hs256"
        let ec = P256.Signing.PrivateKey()
        let cases: [(ClientAuthentication, JWSVerificationKey, String)] = [
            (try .clientSecretJWT(clientID: "c", secret: secret), JWSVerificationKey(hmacSecret: Data(secret.utf8)), "client_secret_jwt"),
            (try .privateKeyJWT(clientID: "c", key: .es256(ec, keyID: "k")), JWSVerificationKey(ec.publicKey), "private_key_jwt"),
        ]
        for (authentication, key, name) in cases {
            #expect(authentication.methodName == name)
            let parameters = formParameters(try await send(authentication))
            #expect(parameters["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
            let jwt = try VerifiedJWT(
                try #require(parameters["client_assertion"]), key: key, options: JWTValidationOptions(audience: endpoint.absoluteString))
            #expect(jwt.claims.issuer == "c" && jwt.claims.subject == "c" && jwt.claims.jwtID != nil)
            let lifetime = try #require(jwt.claims.expiresAt).timeIntervalSince(try #require(jwt.claims.issuedAt))
            #expect(lifetime == 60)
        }
        #expect(throws: JOSEError.self) { _ = try ClientAuthentication.clientSecretJWT(clientID: "c", secret: "short") }
        #expect(throws: JOSEError.self) { _ = try ClientAuthentication.privateKeyJWT(clientID: "c", key: .hs256(secret: Data(count: 32))) }
    }

    /// Review item 21 (the OpenID Foundation's 2025 advisory on audience injection): an
    /// assertion names the issuer, one string, whatever endpoint it goes to; without a known
    /// issuer, the token endpoint; the other choices for servers that need them.
    @Test func assertionsNameTheIssuerAtEveryEndpoint() async throws {
        let ec = P256.Signing.PrivateKey()
        var authentication = try ClientAuthentication.privateKeyJWT(clientID: "c", key: .es256(ec))
        #expect(authentication.assertionAudience == .issuer)
        func audience(_ request: TransportRequest) throws -> JSONValue? {
            let assertion = try #require(formParameters(request)["client_assertion"])
            return try VerifiedJWT(assertion, key: JWSVerificationKey(ec.publicKey)).claims.all["aud"]
        }
        let issuer = "https://as.example"
        // The token endpoint, with and without a known issuer.
        let transport = ScriptedTransport([ok, ok, json(200, "{}")])
        _ = try await TokenEndpointClient(endpoint: endpoint, clientAuthentication: authentication, transport: transport, issuer: issuer)
            .requestToken(.clientCredentials(scope: "s"))
        _ = try await TokenEndpointClient(endpoint: endpoint, clientAuthentication: authentication, transport: transport)
            .requestToken(.clientCredentials(scope: "s"))
        // Revocation.
        let revocation = URL(string: "https://as.example/oauth/revoke")!
        try await TokenRevocationClient(
            endpoint: revocation, clientAuthentication: authentication, transport: transport, tokenEndpoint: endpoint, issuer: issuer
        ).revoke("t", hint: nil)
        #expect(try transport.sent.map(audience) == [.string(issuer), .string(endpoint.absoluteString), .string(issuer)])

        // The other choices, for a PAR request.
        let par = ClientAuthentication.Recipient(
            endpoint: URL(string: "https://as.example/oauth/par")!, tokenEndpoint: endpoint, issuer: issuer)
        #expect(par.audience(.issuer) == issuer)
        #expect(par.audience(.tokenEndpoint) == endpoint.absoluteString)
        #expect(par.audience(.endpoint) == "https://as.example/oauth/par")
        authentication.assertionAudience = .tokenEndpoint
        var parameters: [(String, String)] = []
        var headers = HeaderFields()
        try authentication.apply(to: &parameters, headers: &headers, recipient: par)
        let assertion = try #require(parameters.first { $0.0 == "client_assertion" }?.1)
        #expect(try VerifiedJWT(assertion, key: JWSVerificationKey(ec.publicKey)).claims.all["aud"] == .string(endpoint.absoluteString))
    }

    @Test func grantParameters() async throws {
        let code = formParameters(
            try await send(.none(clientID: "c"), .authorizationCode(code: "abc", redirectURI: "app:/cb", codeVerifier: "v")))
        #expect(
            code["grant_type"] == "authorization_code" && code["code"] == "abc" && code["redirect_uri"] == "app:/cb"
                && code["code_verifier"] == "v")
        let refresh = formParameters(try await send(.none(clientID: "c"), .refreshToken("r t", scope: "x")))
        #expect(refresh["grant_type"] == "refresh_token" && refresh["refresh_token"] == "r t" && refresh["scope"] == "x")
        let other = formParameters(try await send(.none(clientID: "c"), .other(grantType: "urn:x", parameters: ["a": "1"])))
        #expect(other["grant_type"] == "urn:x" && other["a"] == "1")
    }

    func classify(_ status: Int, _ body: String, type: String? = "application/json", headers: HeaderFields = [:]) throws
        -> TokenEndpointResponse
    {
        var headers = headers
        headers["Content-Type"] = type
        return try TokenEndpointResponse(TransportResponse(status: status, headers: headers, body: Data(body.utf8), url: endpoint))
    }

    @Test func successResponsesKeepEveryMember() throws {
        guard
            case .success(let tokens) = try classify(
                200, #"{"access_token":"at","token_type":"DPoP","expires_in":"120","id_token":"x.y.z","custom":[1,2]}"#,
                type: "application/json; charset=utf-8")
        else {
            Issue.record("not a success")
            return
        }
        #expect(tokens.expiresIn == 120 && tokens.isDPoPBound && tokens.idToken == "x.y.z" && tokens.refreshToken == nil)
        #expect(tokens.raw["custom"] == [1, 2])
        #expect(abs(try #require(tokens.expiresAt).timeIntervalSince(tokens.receivedAt) - 120) < 0.001)
        guard case .success(let numeric) = try classify(200, #"{"access_token":"at","token_type":"Bearer","expires_in":3600}"#) else {
            Issue.record("not a success")
            return
        }
        #expect(numeric.expiresIn == 3600 && !numeric.isDPoPBound)
    }

    @Test func oauthErrorsAreResults() throws {
        guard case .failure(let error) = try classify(400, #"{"error":"invalid_grant","error_description":"expired"}"#) else {
            Issue.record("not an error response")
            return
        }
        #expect(error.error == "invalid_grant" && error.errorDescription == "expired" && error.statusCode == 400)
        #expect(error.recoverySuggestion == .newHaapiFlow)
        guard case .failure(let client) = try classify(401, #"{"error":"invalid_client"}"#) else {
            Issue.record("not an error")
            return
        }
        #expect(client.recoverySuggestion == .unrecoverable(action: .modifyConfiguration(reason: "the server answered invalid_client")))
    }

    @Test func anythingElseIsATypedErrorThatKeepsStatusAndBody() throws {
        // nil: an UnexpectedResponseError (no tokens and no OAuth error); a code: a TokenEndpointError.
        let cases: [(Int, String, String?, TokenEndpointError.Code?)] = [
            (500, "<html><body>Internal error</body></html>", "text/html", nil),
            (400, "", nil, nil),
            (200, #"{"access_token":"at","token_type":"Bearer"}"#, "text/plain", nil),
            (200, "not json", "application/json", nil),
            (200, "[1,2]", "application/json", nil),
            (400, #"{"message":"no error member"}"#, "application/json", nil),
            // Found by the token-response fuzz harness: an empty code is no OAuth error.
            (400, #"{"error":""}"#, "application/json", nil),
            (200, #"{"token_type":"Bearer"}"#, "application/json", .invalidResponse),
            (200, #"{"access_token":"at","token_type":"Bearer","expires_in":"soon"}"#, "application/json", .invalidResponse),
            (200, #"{"access_token":"at","token_type":"Bearer","expires_in":-5}"#, "application/json", .invalidResponse),
            (200, #"{"access_token":"at","token_type":"Bearer","refresh_token":7}"#, "application/json", .invalidResponse),
        ]
        for (status, body, type, code) in cases {
            do {
                _ = try classify(status, body, type: type)
                Issue.record("HTTP \(status) \(body) was accepted")
            } catch let error as TokenEndpointError {
                #expect(error.code == code, "\(status) \(body)")
                #expect(error.statusCode == status)
                #expect(error.rawBody == Data(body.utf8))
            } catch let error as UnexpectedResponseError {
                #expect(code == nil, "\(status) \(body): \(error)")
                #expect(error.statusCode == status && error.error == "unexpected_response")
                #expect(error.body == Data(body.utf8))
            }
        }
    }

    @Test func recoveryFollowsStatusAndRetryAfter() throws {
        func error(_ status: Int, headers: HeaderFields = [:]) throws -> UnexpectedResponseError {
            do { _ = try classify(status, "busy", type: "text/plain", headers: headers) } catch let error as UnexpectedResponseError {
                return error
            }
            throw HTTPTransportError(.invalidRequest, "no error")
        }
        let busy = try error(503, headers: ["Retry-After": "7"])
        #expect(busy.recoverySuggestion == .retryable(condition: .now) && busy.retryAfter == 7)
        #expect(try error(429).recoverySuggestion == .retryable(condition: .now))
        #expect(try error(502).recoverySuggestion == .retryable(condition: .now))
        #expect(try error(502).retryAfter == nil)
        #expect(try error(404).recoverySuggestion == .unrecoverable(action: .introspectCause))
    }
}

@Suite("Retry-After")
struct RetryAfterTests {
    static let url = URL(string: "https://as.example/token")!

    func response(_ status: Int, retryAfter: String?, body: String = "") -> TransportResponse {
        var headers: HeaderFields = ["Content-Type": "application/json"]
        if let retryAfter { headers["Retry-After"] = retryAfter }
        return TransportResponse(status: status, headers: headers, body: Data(body.utf8), url: Self.url)
    }

    @Test func secondsAndHTTPDates() throws {
        // RFC 9110's example date, and "now" 120 s before it.
        let now = Date(timeIntervalSince1970: 784_111_777 - 120)
        #expect(response(503, retryAfter: "30").retryAfterSeconds(now: now) == 30)
        #expect(response(503, retryAfter: "Sun, 06 Nov 1994 08:49:37 GMT").retryAfterSeconds(now: now) == 120)
        #expect(response(503, retryAfter: "Sunday, 06-Nov-94 08:49:37 GMT").retryAfterSeconds(now: now) == 120)
        #expect(response(503, retryAfter: "Sun Nov  6 08:49:37 1994").retryAfterSeconds(now: now) == 120)
        #expect(response(503, retryAfter: "Sun, 06 Nov 1994 08:49:37 GMT").retryAfterSeconds(now: now.addingTimeInterval(600)) == 0)
        for bad in ["-5", "soon", "", "inf"] {
            #expect(response(503, retryAfter: bad).retryAfterSeconds(now: now) == nil, "\(bad)")
        }
        #expect(response(503, retryAfter: nil).retryAfterSeconds == nil)
    }

    @Test func aBusyServersOAuthErrorKeepsItsDelay() throws {
        let busy = try TokenEndpointResponse(response(503, retryAfter: "30", body: #"{"error":"temporarily_unavailable"}"#))
        guard case .failure(let error) = busy else {
            Issue.record("not an OAuth error: \(busy)")
            return
        }
        #expect(error.retryAfter == 30)
        #expect(error.recoverySuggestion == .retryable(condition: .now))

        let plain = try TokenEndpointResponse(response(503, retryAfter: nil, body: #"{"error":"temporarily_unavailable"}"#))
        guard case .failure(let later) = plain else {
            Issue.record("not an OAuth error: \(plain)")
            return
        }
        #expect(later.recoverySuggestion == .retryable(condition: .now) && later.retryAfter == nil)

        // A delay does not make a refusal retryable.
        let refused = try TokenEndpointResponse(response(400, retryAfter: "30", body: #"{"error":"invalid_grant"}"#))
        guard case .failure(let grant) = refused else {
            Issue.record("not an OAuth error: \(refused)")
            return
        }
        #expect(grant.recoverySuggestion == .newHaapiFlow)
    }
}
