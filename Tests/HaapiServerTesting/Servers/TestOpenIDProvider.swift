import Crypto
import CryptoExtras
import Foundation
import HaapiTesting
import NIOHTTP1
import OAuthCore
import OAuthTransportNIO
import OIDCClient
import Synchronization

/// The tests' OpenID Provider: it behaves correctly unless a test tells it to misbehave in one
/// way (``Behaviour``: the OpenID RP conformance cases), and records what it received.
///
/// It checks what a real provider checks: the client, PKCE and the redirect URI of each code
/// (used once), refresh tokens (rotated: each is used once), DPoP proofs and `dpop_jkt`, and
/// the access tokens sent to UserInfo and to its API (`/api/resource`). It supports PAR,
/// dynamic registration, revocation and RP-initiated logout.
///
/// Each path is a ``FaultEndpoint`` of a ``FaultServer``, so a test can make any of them
/// misbehave as a broken server does (``inject(_:at:times:)``); the ID tokens it issues follow
/// the server's clock (``ServerFault/clockFiveMinutesOff``). Started with
/// `separateResourceServer`, it serves its ``resourcePaths`` (keys, UserInfo, API) from a
/// second host, which can be refused while the token endpoint still answers.
public final class TestOpenIDProvider: Sendable {
    /// How `iss` appears in the authorization response.
    public enum AuthorizationIssuer: Sendable {
        /// The provider's issuer.
        case correct
        /// Absent.
        case missing
        /// Another issuer's.
        case wrong
    }

    /// How the ID token is signed.
    public enum Signing: Sendable {
        /// ES256 with ``es1`` (``TestIDTokenSigner/key``), published by default.
        case es256
        /// ES256 with ``es2``, the key after a rotation, not published by default.
        case es256Rotated
        /// RS256 with ``rs``, published by default.
        case rs256
        /// Unsigned (`alg` none).
        case none
        /// HS256 with ``rs``'s public key as the secret: the algorithm-confusion forgery.
        case hs256WithPublicKey
        /// ES256 with a new key never published.
        case unpublishedKey
    }

    /// Everything a test can change; a provider that behaves correctly by default.
    public struct Behaviour: Sendable {
        /// The `issuer` of the discovery document, when not the provider's own.
        public var discoveryIssuer: String?
        /// `authorization_response_iss_parameter_supported` (RFC 9207).
        public var issParameterSupported = false
        /// How `iss` appears in the authorization response.
        public var authorizationIssuer = AuthorizationIssuer.correct
        /// The `state` of the authorization response, when not the request's.
        public var authorizationState: String?
        /// An `error` the authorization endpoint answers with instead of a code.
        public var authorizationError: String?
        /// How ID tokens are signed.
        public var signing = Signing.es256
        /// Whether ID tokens name their key (`kid`).
        public var includeKid = true
        /// Whether one bit of each ID token's signature is flipped.
        public var corruptSignature = false
        /// The keys served at `jwks_uri`, by fetch number (1 = the first fetch).
        public var jwks: @Sendable (Int) -> [JWK] = { _ in [TestOpenIDProvider.es1Public, TestOpenIDProvider.rsPublic] }
        /// Changes each ID token's claims before it is signed.
        public var idTokenClaims: @Sendable (inout [String: JSONValue]) -> Void = { _ in }
        /// From an ID token's `iat` to its `exp`, in seconds, by the server's clock.
        public var idTokenLifetime = 300
        /// The `sub` UserInfo answers with, when not ``TestOpenIDProvider/subject``.
        public var userInfoSubject: String?
        /// An `error` every refresh is answered with.
        public var refreshError: String?
        /// `expires_in` of the access tokens.
        public var accessTokenLifetime = 300
        /// Whether discovery names the PAR endpoint.
        public var parSupported = false
        /// What the PAR endpoint answers instead of a `request_uri`, when set.
        public var parRefusal: Reply?

        /// A provider that behaves correctly.
        public init() {}
    }

    /// The client ID it knows (as a public client), and gives dynamically registered clients.
    public static let clientID = "test-client"
    /// The user every login logs in.
    public static let subject = "user-1"
    /// The scope of the tokens it issues.
    public static let scope = "openid profile"
    /// Its ES256 signing key (``TestIDTokenSigner/key``).
    public static let es1 = TestIDTokenSigner.key
    /// A second ES256 key, for rotation.
    public static let es2 = P256.Signing.PrivateKey()
    /// Its RS256 key.
    public static let rs = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    /// ``es1``'s public JWK.
    public static let es1Public = TestIDTokenSigner.publicJWK
    /// ``es2``'s public JWK.
    public static let es2Public = JWSSigningKey.es256(es2, keyID: "es-2").publicJWK!
    /// ``rs``'s public JWK.
    public static let rsPublic = try! JWSSigningKey.rsa(rs, keyID: "rs-1").publicJWK!
    /// The paths of its resources: what the second host serves, with `separateResourceServer`.
    public static let resourcePaths: Set<String> = ["/jwks", "/userinfo", "/api/resource"]

    /// `http://127.0.0.1:<port>`.
    public let issuer: String
    private let endpoints: ProviderEndpoints
    private let authorizationServer: FaultServer
    private let resourceServer: FaultServer?

    private init(endpoints: ProviderEndpoints, authorizationServer: FaultServer, resourceServer: FaultServer?) {
        self.endpoints = endpoints
        self.authorizationServer = authorizationServer
        self.resourceServer = resourceServer
        self.issuer = authorizationServer.server.url
    }

    /// Starts a provider; `configure` sets its misbehaviour. With `separateResourceServer`, its
    /// ``resourcePaths`` are served by a second server.
    public static func start(
        separateResourceServer: Bool = false, _ configure: (inout Behaviour) -> Void = { _ in }
    ) async throws -> TestOpenIDProvider {
        var behaviour = Behaviour()
        configure(&behaviour)
        let endpoints = ProviderEndpoints(behaviour: behaviour)
        let all = endpoints.faultEndpoints()
        guard separateResourceServer else {
            let server = try await FaultServer.start(all)
            endpoints.serve(issuer: server.server.url, resources: server.server.url)
            return TestOpenIDProvider(endpoints: endpoints, authorizationServer: server, resourceServer: nil)
        }
        let resources = try await FaultServer.start(all.filter { resourcePaths.contains($0.key) })
        do {
            let server = try await FaultServer.start(all.filter { !resourcePaths.contains($0.key) })
            endpoints.serve(issuer: server.server.url, resources: resources.server.url)
            return TestOpenIDProvider(endpoints: endpoints, authorizationServer: server, resourceServer: resources)
        } catch {
            await resources.stop()
            throw error
        }
    }

    /// Stops its servers.
    public func stop() async {
        await authorizationServer.stop()
        await resourceServer?.stop()
    }

    /// How it behaves now.
    public var behaviour: Behaviour { endpoints.record.withLock { $0.behaviour } }

    /// Changes how it behaves from the next request on.
    public func change(_ body: (inout Behaviour) -> Void) { endpoints.record.withLock { body(&$0.behaviour) } }

    /// Makes every access token issued so far invalid (as an expiry or a server restart would).
    public func invalidateAccessTokens() { endpoints.record.withLock { $0.validAccessTokens.removeAll() } }

    /// How many token requests of `grantType` it received (answered by it, not by a fault).
    public func tokenRequests(_ grantType: String) -> Int { endpoints.record.withLock { $0.tokenRequests[grantType] ?? 0 } }

    /// The parameters of each authorization request that got a code (a pushed request's, for PAR).
    public var authorizeRequests: [[String: String]] { endpoints.record.withLock { $0.authorizeRequests } }
    /// How many times its key set was served.
    public var jwksFetches: Int { endpoints.record.withLock { $0.jwksFetches } }
    /// The tokens sent to the revocation endpoint, in order.
    public var revoked: [String] { endpoints.record.withLock { $0.revoked } }
    /// The query of each end-session request.
    public var endSessionRequests: [[String: String]] { endpoints.record.withLock { $0.endSessionRequests } }
    /// The `Authorization` header of each request to UserInfo and the API.
    public var apiAuthorizations: [String] { endpoints.record.withLock { $0.apiAuthorizations } }

    /// A session as a login with this provider leaves it, without its ID token: an access and a
    /// refresh token the provider accepts, DPoP-bound when `dpopKey` is given. For tests that
    /// start logged in, without a browser.
    public func presetSession(dpopKey: JWK? = nil) -> AuthState {
        let (accessToken, refreshToken) = endpoints.newTokens()
        return AuthState(
            issuer: issuer, clientID: Self.clientID, accessToken: accessToken, tokenType: dpopKey == nil ? "Bearer" : "DPoP",
            accessTokenExpiresAt: Date().addingTimeInterval(TimeInterval(behaviour.accessTokenLifetime)), refreshToken: refreshToken,
            subject: Self.subject, scope: Self.scope, dpopKey: dpopKey)
    }

    // MARK: Servers

    /// The server that serves `path`.
    private func server(for path: String) -> FaultServer {
        Self.resourcePaths.contains(path) ? resourceServer ?? authorizationServer : authorizationServer
    }

    /// The absolute URL of `path`, on the host that serves it.
    public func url(_ path: String) -> URL { server(for: path).url(path) }

    /// Makes `path` misbehave for the next `times` requests (all of them when `nil`); `nil` heals
    /// it. ``ServerFault/connectionRefused`` stops the host serving `path`, and
    /// ``ServerFault/clockFiveMinutesOff`` sets the clock of every path of that host (see
    /// ``FaultServer/inject(_:at:times:)``).
    public func inject(_ fault: ServerFault?, at path: String, times: Int? = nil) async {
        await server(for: path).inject(fault, at: path, times: times)
    }

    /// The requests received at `path`, in order, answered or not.
    public func requests(to path: String) -> [ReceivedRequest] { server(for: path).requests(to: path) }

    // MARK: Clients

    /// A client of this provider: a public client with loopback redirects on any free port,
    /// over `transport` (a new AsyncHTTPClientTransport by default); `configure` changes the rest.
    public func client(
        storage: any Storage = InMemoryStorage(), storageKey: String = "oidc-auth-state", transport: (any HTTPTransport)? = nil,
        configure: (inout OIDCConfiguration) -> Void = { _ in }
    ) throws -> OIDCClient {
        var configuration = OIDCConfiguration(
            issuer: URL(string: issuer)!, clientAuthentication: .none(clientID: Self.clientID),
            redirectURI: URL(string: "http://127.0.0.1:0/callback")!,
            postLogoutRedirectURI: URL(string: "http://127.0.0.1:0/logged-out")!, scopes: ["openid", "profile"],
            userAgentTimeout: 15)
        configure(&configuration)
        return OIDCClient(
            configuration: configuration, transport: try transport ?? AsyncHTTPClientTransport(), storage: storage, storageKey: storageKey)
    }
}

/// Runs `body` with a started ``TestOpenIDProvider`` (see
/// ``TestOpenIDProvider/start(separateResourceServer:_:)``), stopped afterwards whatever happens.
public func withTestOpenIDProvider<T>(
    separateResourceServer: Bool = false, _ configure: (inout TestOpenIDProvider.Behaviour) -> Void = { _ in },
    _ body: (TestOpenIDProvider) async throws -> T
) async throws -> T {
    try await withStopping(
        try await TestOpenIDProvider.start(separateResourceServer: separateResourceServer, configure), stop: { await $0.stop() }, body)
}

/// What a ``TestOpenIDProvider`` answers at each path, and what it keeps between requests.
private final class ProviderEndpoints: Sendable {
    struct Record {
        var behaviour: Behaviour
        /// The authorization request of each code not yet exchanged.
        var grants: [String: [String: String]] = [:]
        /// The parameters of each pushed request not yet used.
        var pushed: [String: [String: String]] = [:]
        var validAccessTokens: Set<String> = []
        var validRefreshTokens: Set<String> = []
        /// Numbers codes, tokens and request URIs.
        var counter = 0
        var tokenRequests: [String: Int] = [:]
        var jwksFetches = 0
        var authorizeRequests: [[String: String]] = []
        var revoked: [String] = []
        var endSessionRequests: [[String: String]] = []
        var apiAuthorizations: [String] = []
    }

    typealias Behaviour = TestOpenIDProvider.Behaviour
    typealias Context = FaultEndpoint.Context

    let record: Mutex<Record>
    /// The issuer and the origin of the resources, known once the servers listen (before any request).
    private let origins = Mutex((issuer: "", resources: ""))

    init(behaviour: Behaviour) { record = Mutex(Record(behaviour: behaviour)) }

    func serve(issuer: String, resources: String) { origins.withLock { $0 = (issuer, resources) } }

    private var issuer: String { origins.withLock { $0.issuer } }
    private var behaviour: Behaviour { record.withLock { $0.behaviour } }

    /// Every path, as a fault server's endpoint.
    func faultEndpoints() -> [String: FaultEndpoint] {
        func endpoint(
            _ nonceChallenge: FaultEndpoint.NonceChallenge, mediaType: String = "application/json",
            _ answer: @escaping @Sendable (Context) -> Reply
        ) -> FaultEndpoint {
            FaultEndpoint(mediaType: mediaType, nonceChallenge: nonceChallenge, healthy: answer)
        }
        return [
            "/.well-known/openid-configuration": endpoint(.resourceServer) { _ in self.discovery() },
            "/jwks": endpoint(.resourceServer) { _ in self.jwks() },
            "/authorize": endpoint(.authorizationServer, mediaType: "text/html") { self.authorize($0.request.query) },
            "/par": endpoint(.authorizationServer) { self.par($0.request.form) },
            "/token": endpoint(.authorizationServer) { self.token($0) },
            "/revoke": endpoint(.authorizationServer) { self.revoke($0.request.form) },
            "/register": endpoint(.authorizationServer) { self.register($0.request.body) },
            "/end_session": endpoint(.authorizationServer, mediaType: "text/html") { self.endSession($0.request.query) },
            "/userinfo": endpoint(.resourceServer) { self.userInfo($0.request) },
            "/api/resource": endpoint(.resourceServer) { self.resource($0.request) },
        ]
    }

    // MARK: Provider documents

    private func discovery() -> Reply {
        let behaviour = self.behaviour
        let (issuer, resources) = origins.withLock { $0 }
        var document: [String: JSONValue] = [
            "issuer": .string(behaviour.discoveryIssuer ?? issuer),
            "authorization_endpoint": .string(issuer + "/authorize"),
            "token_endpoint": .string(issuer + "/token"),
            "userinfo_endpoint": .string(resources + "/userinfo"),
            "jwks_uri": .string(resources + "/jwks"),
            "revocation_endpoint": .string(issuer + "/revoke"),
            "end_session_endpoint": .string(issuer + "/end_session"),
            "registration_endpoint": .string(issuer + "/register"),
            "response_types_supported": ["code"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["ES256", "RS256"],
            "code_challenge_methods_supported": ["S256"],
            "dpop_signing_alg_values_supported": ["ES256"],
            "authorization_response_iss_parameter_supported": .bool(behaviour.issParameterSupported),
        ]
        if behaviour.parSupported { document["pushed_authorization_request_endpoint"] = .string(issuer + "/par") }
        return .json(200, String(decoding: JSONValue.object(document).serialized(), as: UTF8.self))
    }

    private func jwks() -> Reply {
        let (fetch, keys) = record.withLock { record in
            record.jwksFetches += 1
            return (record.jwksFetches, record.behaviour.jwks)
        }
        let body = (try? JSONValue.encodeSorted(["keys": keys(fetch)])) ?? Data()
        return .respond(status: 200, headers: [("Content-Type", "application/json")], body: Array(body))
    }

    private func register(_ body: [UInt8]) -> Reply {
        guard let document = try? JSONValue(parsing: Data(body)), let redirects = document["redirect_uris"]?.arrayValue, !redirects.isEmpty
        else { return .json(400, #"{"error":"invalid_redirect_uri"}"#) }
        var answer = document.objectValue ?? [:]
        answer["client_id"] = .string(TestOpenIDProvider.clientID)
        return .json(201, String(decoding: JSONValue.object(answer).serialized(), as: UTF8.self))
    }

    // MARK: The browser's endpoints

    private func par(_ form: [String: String]) -> Reply {
        record.withLock { record in
            if let refusal = record.behaviour.parRefusal { return refusal }
            record.counter += 1
            let uri = "urn:ietf:params:oauth:request_uri:\(record.counter)"
            record.pushed[uri] = form
            return .json(201, #"{"request_uri":"\#(uri)","expires_in":60}"#)
        }
    }

    private func authorize(_ query: [String: String]) -> Reply {
        var parameters = query
        if let uri = query["request_uri"] {
            guard let pushed = record.withLock({ $0.pushed.removeValue(forKey: uri) }) else {
                return .json(400, #"{"error":"invalid_request_uri"}"#)
            }
            parameters = pushed
        }
        guard parameters["client_id"] == TestOpenIDProvider.clientID, let redirectURI = parameters["redirect_uri"] else {
            return .json(400, #"{"error":"invalid_request"}"#)
        }
        let behaviour = self.behaviour
        var reply: [(String, String)] = []
        if let error = behaviour.authorizationError ?? (parameters["code_challenge_method"] == "S256" ? nil : "invalid_request") {
            reply.append(("error", error))
        } else {
            let code = record.withLock { record -> String in
                record.counter += 1
                let code = "code-\(record.counter)"
                record.grants[code] = parameters
                record.authorizeRequests.append(parameters)
                return code
            }
            reply.append(("code", code))
        }
        reply.append(("state", behaviour.authorizationState ?? parameters["state"] ?? ""))
        switch behaviour.authorizationIssuer {
        case .correct: reply.append(("iss", issuer))
        case .wrong: reply.append(("iss", "https://attacker.example"))
        case .missing: break
        }
        return .redirect(redirectURI + "?" + FormURLEncoding.encode(reply))
    }

    private func endSession(_ query: [String: String]) -> Reply {
        record.withLock { $0.endSessionRequests.append(query) }
        guard let target = query["post_logout_redirect_uri"] else { return .json(400, #"{"error":"invalid_request"}"#) }
        return .redirect(target + "?state=" + (query["state"] ?? ""))
    }

    // MARK: Tokens

    private func token(_ context: Context) -> Reply {
        let form = context.request.form
        let grantType = form["grant_type"] ?? ""
        record.withLock { $0.tokenRequests[grantType, default: 0] += 1 }
        guard form["client_id"] == TestOpenIDProvider.clientID else { return .json(401, #"{"error":"invalid_client"}"#) }
        var jkt: String?
        if let proof = context.request.headers.first(name: "DPoP") {
            guard let jws = try? CompactJWS(proof), let key = jws.header.jwk, let verifier = try? JWSVerificationKey(jwk: key),
                (try? jws.verify(with: verifier)) != nil
            else { return .json(400, #"{"error":"invalid_dpop_proof"}"#) }
            jkt = try? key.thumbprint()
        }
        switch grantType {
        case "authorization_code":
            guard let code = form["code"], let grant = record.withLock({ $0.grants.removeValue(forKey: code) }) else {
                return .json(400, #"{"error":"invalid_grant","error_description":"unknown or used code"}"#)
            }
            guard grant["redirect_uri"] == form["redirect_uri"],
                let verifier = form["code_verifier"], PKCE.challenge(for: verifier) == grant["code_challenge"]
            else { return .json(400, #"{"error":"invalid_grant","error_description":"PKCE or redirect_uri mismatch"}"#) }
            if let bound = grant["dpop_jkt"], bound != jkt {
                return .json(400, #"{"error":"invalid_dpop_proof","error_description":"dpop_jkt mismatch"}"#)
            }
            return issueTokens(nonce: grant["nonce"], dpopBound: jkt != nil, at: context.serverNow)
        case "refresh_token":
            if let error = behaviour.refreshError { return .json(400, #"{"error":"\#(error)"}"#) }
            guard let token = form["refresh_token"], record.withLock({ $0.validRefreshTokens.remove(token) }) != nil else {
                return .json(400, #"{"error":"invalid_grant","error_description":"refresh token unknown, used or revoked"}"#)
            }
            return issueTokens(nonce: nil, dpopBound: jkt != nil, at: context.serverNow)
        default:
            return .json(400, #"{"error":"unsupported_grant_type"}"#)
        }
    }

    /// A new access and refresh token, both valid from now on.
    func newTokens() -> (accessToken: String, refreshToken: String) {
        record.withLock { record in
            record.counter += 1
            let pair = ("at-\(record.counter)-\(UUID().uuidString)", "rt-\(record.counter)-\(UUID().uuidString)")
            record.validAccessTokens.insert(pair.0)
            record.validRefreshTokens.insert(pair.1)
            return pair
        }
    }

    /// A token response with a new access and refresh token and an ID token issued at `now`, the server's time.
    private func issueTokens(nonce: String?, dpopBound: Bool, at now: Date) -> Reply {
        let behaviour = self.behaviour
        let (accessToken, refreshToken) = newTokens()
        let iat = Int(now.timeIntervalSince1970)
        var claims: [String: JSONValue] = [
            "iss": .string(issuer), "sub": .string(TestOpenIDProvider.subject), "aud": .string(TestOpenIDProvider.clientID),
            "exp": .integer(iat + behaviour.idTokenLifetime), "iat": .integer(iat), "auth_time": .integer(iat),
            // ES256 and RS256 both hash with SHA-256.
            "at_hash": .string(TestIDTokenSigner.accessTokenHash(accessToken)),
        ]
        if let nonce { claims["nonce"] = .string(nonce) }
        behaviour.idTokenClaims(&claims)
        let idToken = sign(JSONValue.object(claims).serialized(), behaviour)
        let response: JSONValue = [
            "access_token": .string(accessToken), "token_type": .string(dpopBound ? "DPoP" : "Bearer"),
            "expires_in": .integer(behaviour.accessTokenLifetime), "refresh_token": .string(refreshToken),
            "id_token": .string(idToken), "scope": .string(TestOpenIDProvider.scope),
        ]
        return .respond(
            status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")], body: Array(response.serialized()))
    }

    private func sign(_ payload: Data, _ behaviour: Behaviour) -> String {
        func key(_ key: JWSSigningKey) -> JWSSigningKey {
            var key = key
            if !behaviour.includeKid { key.keyID = nil }
            return key
        }
        var token: String
        switch behaviour.signing {
        case .es256: token = TestIDTokenSigner.sign(payload, with: key(.es256(TestOpenIDProvider.es1, keyID: TestIDTokenSigner.keyID)))
        case .es256Rotated: token = TestIDTokenSigner.sign(payload, with: key(.es256(TestOpenIDProvider.es2, keyID: "es-2")))
        case .unpublishedKey: token = TestIDTokenSigner.sign(payload, with: key(.es256(P256.Signing.PrivateKey(), keyID: "es-unknown")))
        case .rs256:
            token = try! CompactJWS.sign(
                payload: payload, header: JOSEHeader(algorithm: .rs256, typ: "JWT"),
                key: key(try! .rsa(TestOpenIDProvider.rs, keyID: "rs-1")))
        case .hs256WithPublicKey:
            // The classic algorithm-confusion forgery: the provider's public key used as an HMAC secret.
            let secret = Data(TestOpenIDProvider.rs.publicKey.pemRepresentation.utf8)
            token = try! CompactJWS.sign(
                payload: payload, header: JOSEHeader(algorithm: .hs256, typ: "JWT"), key: key(try! .hs256(secret: secret, keyID: "rs-1")))
        case .none:
            token = Base64URL.encode(Data(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "." + Base64URL.encode(payload) + "."
        }
        if behaviour.corruptSignature {
            var parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            var signature = Base64URL.decode(parts[2])!
            signature[signature.startIndex] ^= 0x01
            parts[2] = Base64URL.encode(signature)
            token = parts.joined(separator: ".")
        }
        return token
    }

    private func revoke(_ form: [String: String]) -> Reply {
        record.withLock {
            let token = form["token"] ?? ""
            $0.revoked.append(token)
            $0.validAccessTokens.remove(token)
            $0.validRefreshTokens.remove(token)
        }
        return .respond(status: 200)
    }

    // MARK: Resources

    /// Whether the request carries a valid access token (as `Bearer` or `DPoP`); records its `Authorization`.
    private func authorized(_ request: ReceivedRequest) -> Bool {
        guard let value = request.headers.first(name: "Authorization") else { return false }
        let parts = value.split(separator: " ", maxSplits: 1)
        return record.withLock { record in
            record.apiAuthorizations.append(value)
            return parts.count == 2 && ["bearer", "dpop"].contains(parts[0].lowercased())
                && record.validAccessTokens.contains(String(parts[1]))
        }
    }

    private static let invalidToken = Reply.respond(status: 401, headers: [("WWW-Authenticate", #"Bearer error="invalid_token""#)])

    private func userInfo(_ request: ReceivedRequest) -> Reply {
        guard authorized(request) else { return Self.invalidToken }
        let subject = behaviour.userInfoSubject ?? TestOpenIDProvider.subject
        return .json(200, #"{"sub":"\#(subject)","email":"user@example.test"}"#)
    }

    private func resource(_ request: ReceivedRequest) -> Reply {
        authorized(request) ? .json(200, #"{"ok":true}"#) : Self.invalidToken
    }
}

/// A browser for tests: follows the provider's redirects (without running any page) until it
/// reaches a page that does not redirect, such as the loopback listener's.
public struct RedirectFollowingBrowser: BrowserLauncher {
    /// Every URL it opened, for assertions.
    package let opened = LockedValue<[URL]>([])

    /// A browser that has opened nothing yet.
    public init() {}

    public func open(_ url: URL) async throws {
        opened.withLock { $0.append(url) }
        // A real browser runs on its own; the login waits for the redirect, not for this.
        Task {
            var next: URL? = url
            var hops = 0
            while let current = next, hops < 10 {
                hops += 1
                let response = try await AsyncHTTPClientTransport().send(TransportRequest(url: current))
                next =
                    (300..<400).contains(response.status)
                    ? response.headers["Location"].flatMap { URL(string: $0, relativeTo: current) } : nil
            }
        }
    }
}

/// A browser the user never finishes with: it opens nothing.
public struct AbandonedBrowser: BrowserLauncher {
    /// A browser.
    public init() {}

    public func open(_ url: URL) async throws {}
}
