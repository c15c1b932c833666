import Foundation
import HaapiDriver
import HaapiSDK
import HaapiTesting
import OAuthCore
import Testing

/// What the token endpoint below remembers: the codes not yet used, and each live refresh
/// token with the thumbprint of the key it is bound to (`nil` when unbound).
struct TokenEndpointState {
    var codes: Set<String> = ["good-code"]
    var refreshBindings: [String: String?] = [:]
}

/// A token endpoint that binds tokens like a DPoP server: a code exchanged with a proof gives
/// DPoP tokens whose refresh token only a proof from the same key can use. `/revoke` refuses
/// the token `refuse-me`; a code `html-please`, or no grant at all, gets a gateway's HTML page.
func tokenEndpoint() -> RoutedTransport<TokenEndpointState> {
    let badGateway: @Sendable (TransportRequest) -> TransportResponse = {
        .text("<html>bad gateway</html>", status: 502, type: "text/html", to: $0)
    }
    return RoutedTransport(
        state: TokenEndpointState(),
        [
            .any("/revoke") { request, _ in
                guard request.form["token"] == "refuse-me" else { return TransportResponse(status: 200, url: request.url) }
                return .json(["error": "unsupported_token_type", "error_description": "no"], status: 400, to: request)
            }
        ]
    ) { request, state in
        let form = request.form
        let jkt = request.verifiedDPoPProof?.thumbprint
        switch form["grant_type"] {
        case "authorization_code" where form["code"] == "html-please":
            return badGateway(request)
        case "authorization_code":
            guard let code = form["code"], state.codes.remove(code) != nil else {
                return .json(["error": "invalid_grant"], status: 400, to: request)
            }
            let refresh = "rt-\(UUID().uuidString)"
            state.refreshBindings[refresh] = .some(jkt)
            return .json(
                [
                    "access_token": "at-1", "token_type": jkt == nil ? "Bearer" : "DPoP", "refresh_token": .string(refresh),
                    "expires_in": 300,
                ],
                headers: ["DPoP-Nonce": "n-1"], to: request)
        case "refresh_token":
            guard let token = form["refresh_token"], let binding = state.refreshBindings[token] else {
                return .json(["error": "invalid_grant"], status: 400, to: request)
            }
            guard binding == jkt else {
                return .json(["error": "invalid_dpop_proof", "error_description": "wrong key"], status: 400, to: request)
            }
            state.refreshBindings[token] = nil
            let next = "rt-\(UUID().uuidString)"
            state.refreshBindings[next] = .some(jkt)
            return .json(
                ["access_token": "at-2", "token_type": jkt == nil ? "Bearer" : "DPoP", "refresh_token": .string(next)], to: request)
        default:
            return badGateway(request)
        }
    }
}

final class RecordingListener: OAuthTokenManager.TokenEndpointResponseListener, @unchecked Sendable {
    private let lock = NSLock()
    private(set) var events: [(String, Int?, String?)] = []
    func onSuccess(_ value: OAuthTokenManager.SuccessTokenHTTPURLResponseContent) { record("success", value) }
    func onTokenError(_ value: OAuthTokenManager.ErrorTokenHTTPURLResponseContent) { record("tokenError", value) }
    func onError(_ value: ErrorHTTPURLResponseContent) { record("error", value) }
    private func record(_ kind: String, _ value: HTTPURLResponseContent) {
        let nonce = value.httpURLResponse?.value(forHTTPHeaderField: "DPoP-Nonce")
        lock.withLock { events.append((kind, value.httpURLResponse?.statusCode, nonce ?? value.dataAsDictionary["error"] as? String)) }
    }
}

func testConfiguration(
    bound: Bool, name: String = UUID().uuidString, listener: (any OAuthTokenManager.TokenEndpointResponseListener)? = nil
) -> HaapiConfiguration {
    HaapiConfiguration(
        name: name, clientId: "app", baseURL: URL(string: "https://idsvr.example")!,
        tokenEndpointURL: URL(string: "https://idsvr.example/token")!,
        authorizationEndpointURL: URL(string: "https://idsvr.example/authorize")!,
        appRedirect: "app:/cb", revocationEndpointURL: URL(string: "https://idsvr.example/revoke")!,
        tokenBoundConfiguration: bound ? BoundedTokenConfiguration() as any TokenBoundConfiguration : UnboundedTokenConfiguration(),
        tokenEndpointResponseListener: listener)
}

@Suite("OAuthTokenManager and token binding")
struct OAuthTokenManagerTests {
    @Test func boundTokensAreRefreshedWithTheKeptKeyAfterARestart() async throws {
        let server = tokenEndpoint()
        let storage = InMemoryStorage()
        let configuration = testConfiguration(bound: true)
        let dpop = try Dpop()
        let first = OAuthTokenManager(oauthTokenConfiguration: configuration, transport: server, storage: storage)
        guard case .successfulToken(let tokens) = await first.fetchAccessToken(with: "good-code", dpop: dpop) else {
            Issue.record("no tokens")
            return
        }
        #expect(tokens.isDPoPBound)
        #expect(server.sent.last?.headers["DPoP"] != nil)
        // A new manager (a restarted app) refreshes with the stored key, without being given it.
        let restarted = OAuthTokenManager(oauthTokenConfiguration: configuration, transport: server, storage: storage)
        guard case .successfulToken(let refreshed) = await restarted.refreshAccessToken(with: try #require(tokens.refreshToken)) else {
            Issue.record("bound refresh failed")
            return
        }
        #expect(refreshed.isDPoPBound && refreshed.accessToken == "at-2")
        // A different key is refused by the server.
        guard case .errorToken(let error) = await restarted.refreshAccessToken(with: try #require(refreshed.refreshToken), dpop: try Dpop())
        else {
            Issue.record("a foreign key was accepted")
            return
        }
        #expect(error.error == "invalid_dpop_proof")
        // Revoking the refresh token forgets the key.
        guard case .success = await restarted.revokeRefreshToken(with: try #require(refreshed.refreshToken)) else {
            Issue.record("revocation failed")
            return
        }
        #expect(storage.keys.isEmpty)
    }

    /// Before the tokens were kept with their key, the key was kept alone under
    /// `haapi-oauth-dpop-key.<name>`: an app updated with bound tokens still refreshes them.
    @Test func aKeyKeptAloneByAnEarlierVersionStillRefreshes() async throws {
        let server = tokenEndpoint()
        let configuration = testConfiguration(bound: true)
        let dpop = try Dpop()
        let old = OAuthTokenManager(oauthTokenConfiguration: configuration, transport: server, storage: InMemoryStorage())
        guard case .successfulToken(let tokens) = await old.fetchAccessToken(with: "good-code", dpop: dpop) else {
            Issue.record("no tokens")
            return
        }
        // What an earlier version left in the storage: the key alone, as JSON.
        let storage = InMemoryStorage()
        try storage.write(
            key: "haapi-oauth-dpop-key.\(configuration.name)", data: JSONValue.encodeSorted(try #require(dpop.signingKey.privateJWK)))
        let updated = OAuthTokenManager(oauthTokenConfiguration: configuration, transport: server, storage: storage)
        guard case .successfulToken(let refreshed) = await updated.refreshAccessToken(with: try #require(tokens.refreshToken)) else {
            Issue.record("the bound refresh failed with the key kept alone")
            return
        }
        #expect(refreshed.isDPoPBound)
        let proof = try #require(server.sent.last?.headers["DPoP"])
        let header = try JSONValue(parsing: try #require(Base64URL.decode(String(proof.split(separator: ".")[0]))))
        #expect(header["jwk"]?["x"]?.stringValue == dpop.publicJWK.x)
    }

    @Test func unboundConfigurationRefusesAKeyAndSendsNoProof() async throws {
        let server = tokenEndpoint()
        let manager = OAuthTokenManager(
            oauthTokenConfiguration: testConfiguration(bound: false), transport: server, storage: InMemoryStorage())
        guard case .error(HaapiError.invalidConfiguration) = await manager.fetchAccessToken(with: "good-code", dpop: try Dpop()) else {
            Issue.record("a DPoP key was accepted with an unbounded configuration")
            return
        }
        #expect(server.sent.isEmpty)
        guard case .successfulToken(let tokens) = await manager.fetchAccessToken(with: "good-code") else {
            Issue.record("no tokens")
            return
        }
        #expect(!tokens.isDPoPBound && server.sent.last?.headers["DPoP"] == nil)
        guard case .successfulToken = await manager.refreshAccessToken(with: try #require(tokens.refreshToken)) else {
            Issue.record("refresh failed")
            return
        }
        #expect(server.sent.last?.headers["DPoP"] == nil)
    }

    @Test func boundConfigurationWithoutAKeyLeavesTheTokensUnbound() async throws {
        // Server issuing unbound codes, client bounded but passing no key: the seeds' first row.
        let server = tokenEndpoint()
        let manager = OAuthTokenManager(
            oauthTokenConfiguration: testConfiguration(bound: true), transport: server, storage: InMemoryStorage())
        guard case .successfulToken(let tokens) = await manager.fetchAccessToken(with: "good-code") else {
            Issue.record("no tokens")
            return
        }
        #expect(!tokens.isDPoPBound)
        guard case .successfulToken = await manager.refreshAccessToken(with: try #require(tokens.refreshToken)) else {
            Issue.record("refresh failed")
            return
        }
    }

    @Test func errorsAndTheListener() async throws {
        let server = tokenEndpoint()
        let listener = RecordingListener()
        let manager = OAuthTokenManager(
            oauthTokenConfiguration: testConfiguration(bound: true, listener: listener), transport: server, storage: InMemoryStorage())
        guard case .successfulToken = await manager.fetchAccessToken(with: "good-code", dpop: try Dpop()) else {
            Issue.record("no tokens")
            return
        }
        guard case .errorToken(let error) = await manager.fetchAccessToken(with: "used-code") else {
            Issue.record("no token error")
            return
        }
        #expect(error.error == "invalid_grant" && error.response.recoverySuggestion == .newHaapiFlow)
        guard case .error(let failure) = await manager.fetchAccessToken(with: "html-please") else {
            Issue.record("HTML accepted")
            return
        }
        // One rule for the SDK's token requests (the HAAPI ones, revocations, code exchanges and
        // refreshes): an answer that is not OAuth is an invalid response caused by it, with the response.
        guard case HaapiError.invalidURLResponse(let response, _, let cause as UnexpectedResponseError)? = failure as? HaapiError else {
            Issue.record("not an invalid response: \(failure)")
            return
        }
        let typed = cause
        #expect(typed.statusCode == 502 && typed.body == Data("<html>bad gateway</html>".utf8))
        #expect(response?.url == testConfiguration(bound: true).tokenEndpointURL && (failure as? HaapiError)?.statusCode == 502)
        // The listener saw each raw response: headers included.
        #expect(listener.events.map(\.0) == ["success", "tokenError", "error"])
        #expect(listener.events.map(\.1) == [200, 400, 502])
        #expect(listener.events.first?.2 == "n-1")
    }

    @Test func revocationNeedsAnEndpoint() async throws {
        var configuration = testConfiguration(bound: false)
        configuration.revocationEndpointURL = nil
        let manager = OAuthTokenManager(oauthTokenConfiguration: configuration, transport: tokenEndpoint(), storage: InMemoryStorage())
        guard case .error(HaapiError.invalidConfiguration) = await manager.revokeAccessToken(with: "at") else {
            Issue.record("revoked without an endpoint")
            return
        }
    }
}

/// Curity's forms of the token manager's calls, and its token responses.
@Suite("OAuthTokenManager in Curity's shape")
struct CurityOAuthTokenManagerTests {
    @Test func additionalParametersReachTheTokenEndpoint() async throws {
        let server = tokenEndpoint()
        let manager = OAuthTokenManager(
            oauthTokenConfiguration: testConfiguration(bound: false), transport: server, storage: InMemoryStorage())
        guard
            case .successfulToken(let tokens) = await manager.fetchAccessToken(
                with: "good-code", additionalParameters: ["resource": "https://api.example"])
        else {
            Issue.record("no tokens")
            return
        }
        #expect(server.sent.last?.form["resource"] == "https://api.example")
        #expect(tokens.expiresIn == 300 && tokens.expiresAt != nil && tokens.tokenType == "Bearer" && tokens.scope == nil)
        // SDK 5.0's completion handler, for a refresh with its own parameter.
        let refreshed = await withCheckedContinuation { (done: CheckedContinuation<TokenResponse, Never>) in
            manager.refreshAccessToken(with: tokens.refreshToken ?? "", additionalParameters: ["audience": "wallet"]) {
                done.resume(returning: $0)
            }
        }
        guard case .successfulToken(let next) = refreshed else {
            Issue.record("got \(refreshed)")
            return
        }
        #expect(server.sent.last?.form["audience"] == "wallet")
        // No expires_in: Curity's Int is 0, and there is no expiry.
        #expect(next.expiresIn == 0 && next.expiresAt == nil)
    }

    @Test func aRefusedRevocationIsTheServersError() async throws {
        let manager = OAuthTokenManager(
            oauthTokenConfiguration: testConfiguration(bound: false), transport: tokenEndpoint(), storage: InMemoryStorage())
        guard case .success = await manager.revokeAccessToken(with: "at") else {
            Issue.record("not revoked")
            return
        }
        let refused = await withCheckedContinuation { (done: CheckedContinuation<TokenRevocationResponse, Never>) in
            manager.revokeRefreshToken(with: "refuse-me") { done.resume(returning: $0) }
        }
        guard case .error(let error as OAuthErrorResponse) = refused else {
            Issue.record("got \(refused)")
            return
        }
        #expect(error.error == "unsupported_token_type" && error.statusCode == 400 && error.errorDescription == "no")
    }

    @Test func tokenResponsesAreCodableAndMadeByTheFactory() async throws {
        let made = HaapiModel.TokenResponseFactory.success(
            accessToken: "at", tokenType: nil, scope: "openid", expiresIn: 60, refreshToken: "rt", idToken: nil)
        #expect(made.tokenType == nil && !made.isDPoPBound && made.expiresIn == 60 && made.raw["scope"] == "openid")
        // Without a token_type it is not a token response RFC 6749 allows, so no session starts with it.
        #expect(throws: TokenEndpointError.self) { try made.tokenSuccessResponse() }
        await HaapiLogger.withScope(HaapiLoggerScope(followUpTags: [], sinks: [], isSensitiveValueMasked: true)) {
            #expect("\(made)" == "SuccessfulTokenResponse(no type, access *****, refresh *****, id none, scope openid, expires in 60 s)")
        }

        let decoded = try JSONDecoder().decode(
            SuccessfulTokenResponse.self, from: Data(#"{"access_token":"a","token_type":"DPoP","expires_in":"30","x":1}"#.utf8))
        #expect(decoded.accessToken == "a" && decoded.isDPoPBound && decoded.expiresIn == 30 && decoded.raw["x"] == 1)
        let again = try JSONDecoder().decode(SuccessfulTokenResponse.self, from: try JSONEncoder().encode(decoded))
        #expect(again == decoded)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(SuccessfulTokenResponse.self, from: Data(#"{"token_type":"DPoP"}"#.utf8))
        }

        let error = HaapiModel.TokenResponseFactory.error(error: "invalid_grant", errorDescription: nil, errorUri: "https://docs.example/e")
        #expect(error.error == "invalid_grant" && error.errorDescription == nil && error.errorUri == "https://docs.example/e")
        #expect(error.response.recoverySuggestion == .newHaapiFlow)
        let decodedError = try JSONDecoder().decode(ErrorTokenResponse.self, from: try JSONEncoder().encode(error))
        #expect(decodedError == error && decodedError.debugDescription == "ErrorTokenResponse(invalid_grant (https://docs.example/e))")
    }

    @Test func buildForOAuthWhateverTheOption() async throws {
        let builder = HaapiAccessorBuilder(haapiConfiguration: testConfiguration(bound: true))
            .setClientAuthenticationMethod(method: ClientAuthenticationMethodSecret(secret: "s")).setTransport(tokenEndpoint())
            .setAttestationValidationRetryCount(maxRetries: 1).setAttestationValidationKeyName(keyName: "wallet-attestation")
        let oauth = try await builder.buildForOAuth()
        #expect(!(oauth is any HaapiAccessor))
        // Built for OAuth, the name stays free for the HAAPI accessor.
        let haapi = try await builder.buildForHaapi(shouldClearExistingDCRClient: true)
        #expect(haapi.haapiManager.dpop === haapi.haapiTokenManager.dpop)
        // With the option .all, `build()` into an OAuthAccessor is the HAAPI accessor's other face.
        haapi.close()
        let both: any OAuthAccessor = try await builder.build()
        #expect(both is any HaapiAccessor)
        (both as? any HaapiAccessor)?.close()
    }
}

@Suite("HaapiAccessorBuilder")
struct HaapiAccessorBuilderTests {
    /// The strategy an accessor's HAAPI token manager resolved.
    static func strategy(of accessor: any HaapiAccessor) -> HaapiAccessStrategy? {
        (accessor.haapiManager.transport as? HaapiClient)?.tokenManager.strategy
    }

    @Test func strategyFollowsTheDevicesCapabilities() async throws {
        let storage = InMemoryStorage()
        let dcr = DCRConfiguration(
            templateClientId: "t", clientRegistrationEndpointUrl: URL(string: "https://idsvr.example/register")!, storage: storage)
        // This platform cannot attest: with DCR configured, the accessor uses it.
        let viaDCR: any HaapiAccessor = try await HaapiAccessorBuilder(haapiConfiguration: testConfiguration(bound: true))
            .setDCRConfiguration(configuration: dcr).setClientAuthenticationMethod(method: ClientAuthenticationMethodSecret("s"))
            .setTransport(tokenEndpoint()).setStorage(storage).build()
        #expect(viaDCR.haapiManager.dpop != nil)
        guard case .dcr? = Self.strategy(of: viaDCR) else {
            Issue.record("not DCR: \(String(describing: Self.strategy(of: viaDCR)))")
            return
        }
        viaDCR.close()
        // Without attestation or DCR, a confidential client uses client credentials; a public one cannot get HAAPI tokens.
        let viaSecret: any HaapiAccessor = try await HaapiAccessorBuilder(haapiConfiguration: testConfiguration(bound: true))
            .setClientAuthenticationMethod(method: ClientAuthenticationMethodSecret("s")).setTransport(tokenEndpoint()).build()
        guard case .clientCredentials? = Self.strategy(of: viaSecret) else {
            Issue.record("not client credentials")
            return
        }
        viaSecret.close()
        // A device that can attest (here the development provider) uses attestation.
        let attested: any HaapiAccessor = try await HaapiAccessorBuilder(haapiConfiguration: testConfiguration(bound: true))
            .setAttestationProvider(InsecureSoftwareAttestationProvider()).setTransport(tokenEndpoint()).build()
        guard case .attestation? = Self.strategy(of: attested) else {
            Issue.record("not attestation")
            return
        }
        attested.close()
        await #expect(throws: HaapiError.self) {
            let _: any HaapiAccessor = try await HaapiAccessorBuilder(haapiConfiguration: testConfiguration(bound: true)).setTransport(
                tokenEndpoint()
            ).build()
        }
        // DCR with no client authentication is a configuration error.
        await #expect(throws: HaapiError.self) {
            let _: any HaapiAccessor = try await HaapiAccessorBuilder(haapiConfiguration: testConfiguration(bound: true))
                .setDCRConfiguration(configuration: dcr).setTransport(tokenEndpoint()).build()
        }
        // The .oauth option builds an OAuthAccessor only; the development attestation provider makes the attestation strategy.
        let builder = HaapiAccessorBuilder(haapiConfiguration: testConfiguration(bound: true))
            .setHaapiAccessorOption(option: .oauth).setAttestationProvider(InsecureSoftwareAttestationProvider())
            .setTransport(tokenEndpoint())
        let oauthOnly: any OAuthAccessor = try await builder.build()
        #expect(!(oauthOnly is any HaapiAccessor))
        // Asking it for a HaapiAccessor is a configuration error, and frees the name again.
        do {
            let _: any HaapiAccessor = try await builder.build()
            Issue.record("an OAuth-only builder made a HaapiAccessor")
        } catch HaapiError.invalidConfiguration(let reason) {
            #expect(reason.contains("OAuthAccessor"))
        }
    }

    @Test func oneAccessorPerNameAtATime() async throws {
        let configuration = testConfiguration(bound: true, name: "shared-\(UUID().uuidString)")
        let builder = HaapiAccessorBuilder(haapiConfiguration: configuration)
            .setClientAuthenticationMethod(method: ClientAuthenticationMethodSecret("s")).setTransport(tokenEndpoint())
        let first: any HaapiAccessor = try await builder.build()
        do {
            let _: any HaapiAccessor = try await builder.build()
            Issue.record("two accessors with one name")
        } catch HaapiError.haapiTokenManagerAlreadyExists {}
        first.close()
        let second: any HaapiAccessor = try await builder.build()
        second.close()
    }
}
