import Crypto
import Foundation
import HaapiDriver
import HaapiTesting
import OAuthCore
import Testing

/// What the authorization server below remembers, and how the test set it to behave.
struct AuthorizationServerState {
    var refuseAttestation = false
    var tokenLifetime = 600
    var forgetRegisteredClients = false
    /// How registered clients authenticate: `client_secret_basic` (the RFC 7591 default, not
    /// named), `client_secret_post` (named), or `none` (registered without a secret).
    var registeredAuthMethod = "client_secret_basic"
    var registeredSecrets: [String: String] = [:]
    var issued: [String] = []
    var revoked: Set<String> = []
    var lastChallenge: String?
}

/// An in-process authorization server with the endpoints the driver talks to. It checks what
/// a real server checks (grant, scope, credentials, DPoP proof signature and binding); the
/// transport counts requests per endpoint.
func authorizationServer(_ initial: AuthorizationServerState = AuthorizationServerState()) -> RoutedTransport<AuthorizationServerState> {
    RoutedTransport(
        state: initial,
        [
            .get("/token/cat") { request, state in
                let challenge = UUID().uuidString
                state.lastChallenge = challenge
                return .json(["challenge": .string(challenge)], to: request)
            },
            .post("/token/cat") { request, state in
                let form = request.form
                guard !state.refuseAttestation, form["challenge"] == state.lastChallenge, let answer = form["challenge_response"],
                    let jws = try? CompactJWS(answer), let jwk = jws.header.jwk,
                    (try? jws.verify(with: JWSVerificationKey(jwk: jwk))) != nil,
                    (try? JSONValue(parsing: jws.payload))?["challenge"]?.stringValue == state.lastChallenge
                else { return .json(["error": "invalid_attestation"], status: 400, to: request) }
                return .json(["cat": .string("cat-\(UUID().uuidString)")], to: request)
            },
            .post("/token") { request, state in
                let form = request.form
                let scope = form["scope"]
                if scope == "dcr" {
                    guard request.headers["Authorization"] == "Basic " + Data("main-client:main-secret".utf8).base64EncodedString() else {
                        return .json(["error": "invalid_client"], status: 401, to: request)
                    }
                    return .json(["access_token": "dcr-initial", "token_type": "Bearer", "expires_in": 60], to: request)
                }
                guard scope == HaapiTokenManager.haapiScope, form["grant_type"] == "client_credentials" else {
                    return .json(["error": "invalid_scope"], status: 400, to: request)
                }
                if form["client_assertion_type"] == HaapiTokenManager.attestationAssertionType {
                    guard form["client_assertion"]?.hasPrefix("cat-") == true else {
                        return .json(["error": "invalid_client"], status: 401, to: request)
                    }
                } else if let basic = request.headers["Authorization"], basic.hasPrefix("Basic ") {
                    let pair = String(decoding: Data(base64Encoded: String(basic.dropFirst(6))) ?? Data(), as: UTF8.self).split(
                        separator: ":", maxSplits: 1
                    ).map(String.init)
                    let known =
                        pair.count == 2
                        && (state.registeredSecrets[pair[0]] == pair[1] || (pair[0] == "main-client" && pair[1] == "main-secret"))
                    guard known, !(state.forgetRegisteredClients && state.registeredSecrets[pair[0]] != nil) else {
                        return .json(["error": "invalid_client"], status: 401, to: request)
                    }
                } else if let id = form["client_id"], let secret = form["client_secret"], state.registeredSecrets[id] == secret,
                    state.registeredAuthMethod == "client_secret_post"
                {
                    // client_secret_post, accepted only from a client registered with it.
                } else {
                    return .json(["error": "invalid_client"], status: 401, to: request)
                }
                // The HAAPI token is DPoP-bound: a valid proof for this endpoint is required.
                guard let dpop = request.verifiedDPoPProof, dpop.proof.header.typ == "dpop+jwt",
                    (try? JSONValue(parsing: dpop.proof.payload))?["htu"]?.stringValue == request.url.dpopHTU
                else { return .json(["error": "invalid_dpop_proof"], status: 400, to: request) }
                let token = "haapi-\(state.issued.count + 1)-\(dpop.thumbprint)"
                state.issued.append(token)
                return .json(
                    ["access_token": .string(token), "token_type": "DPoP", "expires_in": .integer(state.tokenLifetime)], to: request)
            },
            .post("/register") { request, state in
                guard request.headers["Authorization"] == "Bearer dcr-initial",
                    (try? JSONValue(parsing: request.body ?? Data()))?["software_id"] == "haapi-template"
                else { return .json(["error": "invalid_token"], status: 401, to: request) }
                let id = "dcr-\(state.registeredSecrets.count + 1)"
                state.registeredSecrets[id] = "secret-\(id)"
                state.forgetRegisteredClients = false
                switch state.registeredAuthMethod {
                case "none": return .json(["client_id": .string(id), "token_endpoint_auth_method": "none"], status: 201, to: request)
                case "client_secret_basic":
                    return .json(["client_id": .string(id), "client_secret": .string("secret-\(id)")], status: 201, to: request)
                default:
                    return .json(
                        [
                            "client_id": .string(id), "client_secret": .string("secret-\(id)"),
                            "token_endpoint_auth_method": .string(state.registeredAuthMethod),
                        ],
                        status: 201, to: request)
                }
            },
            .get("/haapi/resource") { request, state in
                guard let authorization = request.headers["Authorization"], authorization.hasPrefix("DPoP "),
                    let proof = request.headers["DPoP"], let jws = try? CompactJWS(proof)
                else { return .json([:], status: 401, headers: ["WWW-Authenticate": "DPoP"], to: request) }
                let token = String(authorization.dropFirst(5))
                let ath = (try? JSONValue(parsing: jws.payload))?["ath"]?.stringValue
                guard state.issued.contains(token), !state.revoked.contains(token), ath == Base64URL.encode(SHA256Hash.of(token)) else {
                    return .json([:], status: 401, headers: ["WWW-Authenticate": #"DPoP error="invalid_token""#], to: request)
                }
                return .json(["ok": true], to: request)
            },
        ]
    ) { request, _ in .json(["error": "not_found"], status: 404, to: request) }
}

/// The server, except that every resource request is refused with `challenge`; the recording
/// counts those refused requests.
func refusingResource(_ server: some HTTPTransport, challenge: String = #"DPoP error="invalid_token""#) -> RecordingTransport {
    RecordingTransport(
        InterceptingTransport(server) { request in
            guard request.url.path == "/haapi/resource" else { return nil }
            return TransportResponse(status: 401, headers: ["WWW-Authenticate": challenge], url: request.url)
        })
}

enum SHA256Hash {
    static func of(_ text: String) -> Data { Data(SHA256.hash(data: Data(text.utf8))) }
}

/// A clock the test moves.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_800_000_000)
    var now: Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}

@Suite("HaapiTokenManager")
struct HaapiTokenManagerTests {
    let tokenURL = URL(string: "https://idsvr.example/token")!
    let dcr = { (storage: any Storage, clear: Bool) in
        DCRConfiguration(
            templateClientId: "haapi-template", clientRegistrationEndpointUrl: URL(string: "https://idsvr.example/register")!,
            storage: storage, shouldClearExistingDCRClient: clear)
    }

    func manager(
        _ server: RoutedTransport<AuthorizationServerState>, _ strategy: HaapiAccessStrategy, name: String = UUID().uuidString,
        method: any ClientAuthenticationMethod = ClientAuthenticationMethodSecret("main-secret"), clock: TestClock = TestClock()
    ) throws -> HaapiTokenManager {
        try HaapiTokenManager(
            name: name, clientID: "main-client", tokenEndpointURL: tokenURL, strategy: strategy, clientAuthenticationMethod: method,
            dpop: try Dpop(), transport: server, minTokenTtl: 120, now: { clock.now })
    }

    @Test func attestationGivesADPoPBoundHaapiToken() async throws {
        let server = authorizationServer()
        let tokens = try manager(
            server, .attestation(InsecureSoftwareAttestationProvider(), dcrFallback: nil), method: ClientAuthenticationMethodNone())
        let token = try await tokens.accessToken()
        #expect(token.tokenType == "DPoP")
        #expect(token.value.hasSuffix(try #require(tokens.dpop).thumbprint))
        #expect(server.count(to: "/token/cat") == 2 && server.count(to: "/token") == 1 && server.count(to: "/register") == 0)
        let request = try #require(server.sent(to: "/token").map(\.form).first)
        #expect(request["client_id"] == "main-client" && request["client_assertion_type"] == "urn:se:curity:attestation:client")
        #expect(request["scope"] == "urn:se:curity:scopes:haapi")
    }

    @Test func refusedAttestationFallsBackToDCRAndTheClientIsReusedByLaterRuns() async throws {
        let server = authorizationServer(AuthorizationServerState(refuseAttestation: true))
        let storage = InMemoryStorage()
        let first = try manager(server, .attestation(InsecureSoftwareAttestationProvider(), dcrFallback: dcr(storage, false)))
        _ = try await first.accessToken()
        #expect(server.count(to: "/register") == 1)
        #expect(try await first.effectiveClient.clientID == "dcr-1")
        #expect(storage.keys.count == 1)
        // A later run (a new manager over the same storage) reuses the registered client.
        let second = try manager(server, .dcr(dcr(storage, false)))
        _ = try await second.accessToken()
        #expect(server.count(to: "/register") == 1)
        #expect(try await second.effectiveClient.clientID == "dcr-1")
        // Asked to, a run drops the stored client and registers a new one.
        let third = try manager(server, .dcr(dcr(storage, true)))
        _ = try await third.accessToken()
        #expect(server.count(to: "/register") == 2)
        #expect(try await third.effectiveClient.clientID == "dcr-2")
    }

    @Test func unsupportedAttestationUsesTheFallbackOrFails() async throws {
        let server = authorizationServer()
        let withFallback = try manager(server, .attestation(UnsupportedAttestationProvider(), dcrFallback: dcr(InMemoryStorage(), false)))
        _ = try await withFallback.accessToken()
        #expect(server.count(to: "/token/cat") == 0 && server.count(to: "/register") == 1)
        let without = try manager(server, .attestation(UnsupportedAttestationProvider(), dcrFallback: nil))
        await #expect(throws: HaapiError.self) { _ = try await without.accessToken() }
    }

    @Test func aForgottenDCRClientIsRegisteredAgainOnce() async throws {
        let server = authorizationServer()
        let storage = InMemoryStorage()
        _ = try await manager(server, .dcr(dcr(storage, false))).accessToken()
        server.withState { $0.forgetRegisteredClients = true }
        let again = try manager(server, .dcr(dcr(storage, false)))
        _ = try await again.accessToken()
        #expect(server.count(to: "/register") == 2)
        #expect(try await again.effectiveClient.clientID == "dcr-2")
    }

    /// The registration's `token_endpoint_auth_method` is honoured (RFC 7591 §2): one
    /// `RegisteredClient` for the driver and OIDCClient, which once disagreed.
    @Test func aClientRegisteredForClientSecretPostSendsItsSecretInTheForm() async throws {
        let server = authorizationServer(AuthorizationServerState(registeredAuthMethod: "client_secret_post"))
        let tokens = try manager(server, .dcr(dcr(InMemoryStorage(), false)))
        _ = try await tokens.accessToken()
        let request = try #require(server.sent(to: "/token").map(\.form).last)
        #expect(request["client_id"] == "dcr-1" && request["client_secret"] == "secret-dcr-1")
    }

    /// A registration without a secret is a public client (RFC 7591), and the client credentials
    /// grant is for confidential clients only (RFC 6749 §4.4): a configuration error, said before
    /// any token request.
    @Test func aClientRegisteredWithoutASecretCannotFetchHaapiTokens() async throws {
        let server = authorizationServer(AuthorizationServerState(registeredAuthMethod: "none"))
        let tokens = try manager(server, .dcr(dcr(InMemoryStorage(), false)))
        await #expect { _ = try await tokens.accessToken() } throws: { error in
            guard case HaapiError.invalidConfiguration(let reason) = error else { return false }
            return reason.contains("no client_secret")
        }
        #expect(server.sent(to: "/token").map(\.form).filter { $0["scope"] == HaapiTokenManager.haapiScope }.isEmpty)
    }

    @Test func dcrWithoutClientAuthenticationIsAConfigurationError() throws {
        do {
            _ = try manager(authorizationServer(), .dcr(dcr(InMemoryStorage(), false)), method: ClientAuthenticationMethodNone())
            Issue.record("accepted")
        } catch HaapiError.invalidConfiguration {
        }
    }

    @Test func clientCredentialsStrategy() async throws {
        let server = authorizationServer()
        _ = try await manager(server, .clientCredentials).accessToken()
        #expect(server.sent(to: "/token").map(\.form).first?["grant_type"] == "client_credentials")
        let refused = try manager(server, .clientCredentials, method: ClientAuthenticationMethodSecret("wrong"))
        do {
            _ = try await refused.accessToken()
            Issue.record("a wrong secret got a token")
        } catch HaapiError.serverError(let error, _, let status) {
            #expect(error == "invalid_client" && status == 401)
        }
    }

    @Test func tokensAreCachedUntilMinTokenTtlIsLeft() async throws {
        let server = authorizationServer()
        let clock = TestClock()
        let tokens = try manager(server, .clientCredentials, clock: clock)
        let first = try await tokens.accessToken()
        clock.advance(400)  // 200 s left > 120
        #expect(try await tokens.accessToken() == first)
        clock.advance(100)  // 100 s left < 120
        #expect(try await tokens.accessToken() != first)
        #expect(server.count(to: "/token") == 2)
    }

    @Test func concurrentCallersShareOneTokenRequest() async throws {
        let server = authorizationServer()
        let tokens = try manager(server, .clientCredentials)
        let values = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { try await tokens.accessToken().value } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(values.count == 1)
        #expect(server.count(to: "/token") == 1)
    }

    @Test func namesAreUniqueWhileOpenAndClosedManagersRefuseWork() async throws {
        let server = authorizationServer()
        let name = "haapi-\(UUID().uuidString)"
        let first = try manager(server, .clientCredentials, name: name)
        do {
            _ = try manager(server, .clientCredentials, name: name)
            Issue.record("two managers with one name")
        } catch HaapiError.haapiTokenManagerAlreadyExists(let existing) {
            #expect(existing == name)
        }
        first.close()
        do {
            _ = try await first.accessToken()
            Issue.record("a closed manager gave a token")
        } catch HaapiError.haapiTokenManagerIsClosed {}
        _ = try manager(server, .clientCredentials, name: name)
    }

    @Test func haapiRequestsCarryTheTokenAndARefusedTokenIsRenewedOnce() async throws {
        let server = authorizationServer()
        let tokens = try manager(server, .clientCredentials)
        let transport = HaapiClient(tokenManager: tokens, base: server)
        let resource = TransportRequest(url: URL(string: "https://idsvr.example/haapi/resource")!)
        #expect(try await transport.send(resource).status == 200)
        // The server revokes the token: one new token, one retry.
        server.withState { $0.revoked.formUnion($0.issued) }
        #expect(try await transport.send(resource).status == 200)
        #expect(server.count(to: "/token") == 2 && server.count(to: "/haapi/resource") == 3)
        // A server that refuses every token: one retry, then the 401 is the answer.
        server.withState { $0.tokenLifetime = 600 }
        let always = refusingResource(server)
        let refusing = HaapiClient(tokenManager: tokens, base: always)
        #expect(try await refusing.send(resource).status == 401)
        #expect(always.count(to: "/haapi/resource") == 2)
    }

    /// The one retry rule (``AccessTokenChallenge/asksForNewToken``): a new token for a refused
    /// token or a 401 that names no error; never for a faulty proof or a missing scope.
    @Test(arguments: [
        (#"DPoP error="invalid_token""#, 2), ("DPoP", 2), (#"Bearer realm="api""#, 2),
        (#"DPoP error="invalid_dpop_proof", error_description="bad htu""#, 1), (#"Bearer error="insufficient_scope""#, 1),
    ])
    func aRefusalIsRetriedWithANewTokenOnlyWhenANewTokenCanHelp(challenge: String, calls: Int) async throws {
        let server = authorizationServer()
        let always = refusingResource(server, challenge: challenge)
        let transport = HaapiClient(tokenManager: try manager(server, .clientCredentials), base: always)
        #expect(try await transport.send(TransportRequest(url: URL(string: "https://idsvr.example/haapi/resource")!)).status == 401)
        #expect(always.count(to: "/haapi/resource") == calls)
        #expect(server.count(to: "/token") == calls)
    }
}

/// Issue 28, item 6: numbers from a server never trap where they are described.
@Suite("Hostile numbers in HAAPI errors")
struct HostileNumberTests {
    /// A `Retry-After` past Int's range is cut to a day and described as a number, not
    /// converted (which trapped); a fraction is described as it came.
    @Test func aHugeRetryAfterIsDescribedWithoutTrapping() {
        func busy(_ retryAfter: String) -> UnexpectedResponseError {
            UnexpectedResponseError(
                TransportResponse(status: 503, headers: ["Retry-After": retryAfter], url: URL(string: "https://as.example/haapi")!))
        }
        #expect(busy("1e300").errorDescription == "The server answered HTTP 503 and asked to try again in 86400 s.")
        #expect(busy("2.5").errorDescription == "The server answered HTTP 503 and asked to try again in 2.5 s.")
        #expect(busy("30").errorDescription == "The server answered HTTP 503 and asked to try again in 30 s.")
    }
}
