import Crypto
import CryptoExtras
import HaapiTesting
import Foundation
import NIOConcurrencyHelpers
import OAuthCore

/// An OpenID Provider written for the tests: it behaves correctly unless a test tells it to
/// misbehave in one way (the OpenID RP conformance cases), and records what it received.
final class TestProvider: Sendable {
    /// How `iss` appears in the authorization response.
    enum AuthorizationIssuer: Sendable { case correct, missing, wrong }
    /// How the ID token is signed.
    enum Signing: Sendable {
        case es256
        case es256Rotated
        case rs256
        case none
        case hs256WithPublicKey
        case unpublishedKey
    }

    /// Everything a test can change.
    struct Behaviour: Sendable {
        var discoveryIssuer: String?
        var issParameterSupported = false
        var authorizationIssuer = AuthorizationIssuer.correct
        var authorizationState: String?
        var authorizationError: String?
        var signing = Signing.es256
        var includeKid = true
        var corruptSignature = false
        /// The keys served at `jwks_uri`, by fetch number (1 = the first fetch).
        var jwks: @Sendable (Int) -> [JWK] = { _ in [TestProvider.es1Public, TestProvider.rsPublic] }
        var idTokenClaims: @Sendable (inout [String: JSONValue]) -> Void = { _ in }
        var userInfoSubject: String?
        var refreshError: String?
        var accessTokenLifetime = 300
        var parSupported = false
        /// What the PAR endpoint answers instead of a `request_uri`, when set.
        var parRefusal: Reply?
    }

    struct Grant: Sendable {
        var parameters: [String: String]
    }

    struct Record: Sendable {
        var behaviour = Behaviour()
        var grants: [String: Grant] = [:]
        var pushed: [String: [String: String]] = [:]
        var validAccessTokens: Set<String> = []
        var validRefreshTokens: Set<String> = []
        var counter = 0
        var tokenRequests: [String: Int] = [:]
        var jwksFetches = 0
        var authorizeRequests: [[String: String]] = []
        var revoked: [String] = []
        var endSessionRequests: [[String: String]] = []
        var apiAuthorizations: [String] = []
    }

    static let clientID = "test-client"
    static let subject = "user-1"
    static let es1 = TestIDTokenSigner.key
    static let es2 = P256.Signing.PrivateKey()
    static let rs = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    static let es1Public = TestIDTokenSigner.publicJWK
    static let es2Public = JWSSigningKey.es256(es2, keyID: "es-2").publicJWK!
    static let rsPublic = try! JWSSigningKey.rsa(rs, keyID: "rs-1").publicJWK!

    let record = NIOLockedValueBox(Record())
    private let server: TestServer
    let issuer: String

    private init(server: TestServer) {
        self.server = server
        self.issuer = "http://127.0.0.1:\(server.port)"
    }

    /// Starts a provider; `configure` sets its misbehaviour.
    static func start(_ configure: (inout Behaviour) -> Void = { _ in }) async throws -> TestProvider {
        let box = NIOLockedValueBox<TestProvider?>(nil)
        let server = try await TestServer.start { request in
            guard let provider = box.withLockedValue({ $0 }) else { return .json(503, "{}") }
            return provider.handle(request)
        }
        let provider = TestProvider(server: server)
        provider.record.withLockedValue { configure(&$0.behaviour) }
        box.withLockedValue { $0 = provider }
        return provider
    }

    func stop() async { await server.stop() }

    var behaviour: Behaviour { record.withLockedValue { $0.behaviour } }
    func change(_ body: @Sendable (inout Behaviour) -> Void) { record.withLockedValue { body(&$0.behaviour) } }

    /// Makes every access token issued so far invalid (as an expiry or a server restart would).
    func invalidateAccessTokens() { record.withLockedValue { $0.validAccessTokens.removeAll() } }

    func tokenRequests(_ grantType: String) -> Int { record.withLockedValue { $0.tokenRequests[grantType] ?? 0 } }

    // MARK: Routing

    func handle(_ request: ReceivedRequest) -> Reply {
        switch request.path {
        case "/.well-known/openid-configuration": return discovery()
        case "/jwks": return jwks()
        case "/authorize": return authorize(request.query)
        case "/par": return par(request.form)
        case "/token": return token(request)
        case "/userinfo": return userInfo(request)
        case "/api/resource": return resource(request)
        case "/revoke":
            record.withLockedValue {
                let token = request.form["token"] ?? ""
                $0.revoked.append(token)
                $0.validAccessTokens.remove(token)
                $0.validRefreshTokens.remove(token)
            }
            return .respond(status: 200)
        case "/register":
            guard let document = try? JSONValue(parsing: Data(request.body)), let redirects = document["redirect_uris"]?.arrayValue,
                !redirects.isEmpty
            else { return .json(400, "{\"error\":\"invalid_redirect_uri\"}") }
            var answer = document.objectValue ?? [:]
            answer["client_id"] = .string(Self.clientID)
            return .json(201, String(decoding: JSONValue.object(answer).serialized(), as: UTF8.self))
        case "/end_session":
            record.withLockedValue { $0.endSessionRequests.append(request.query) }
            guard let target = request.query["post_logout_redirect_uri"] else { return .json(400, "{\"error\":\"invalid_request\"}") }
            return .redirect(target + "?state=" + (request.query["state"] ?? ""))
        default: return .json(404, "{}")
        }
    }

    private func discovery() -> Reply {
        let behaviour = self.behaviour
        var document: [String: JSONValue] = [
            "issuer": .string(behaviour.discoveryIssuer ?? issuer),
            "authorization_endpoint": .string(issuer + "/authorize"),
            "token_endpoint": .string(issuer + "/token"),
            "userinfo_endpoint": .string(issuer + "/userinfo"),
            "jwks_uri": .string(issuer + "/jwks"),
            "revocation_endpoint": .string(issuer + "/revoke"),
            "end_session_endpoint": .string(issuer + "/end_session"),
            "registration_endpoint": .string(issuer + "/register"),
            "response_types_supported": ["code"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["ES256", "RS256"],
            "code_challenge_methods_supported": ["S256"],
            "authorization_response_iss_parameter_supported": .bool(behaviour.issParameterSupported),
        ]
        if behaviour.parSupported { document["pushed_authorization_request_endpoint"] = .string(issuer + "/par") }
        return .json(200, String(decoding: JSONValue.object(document).serialized(), as: UTF8.self))
    }

    private func jwks() -> Reply {
        let fetch = record.withLockedValue { record -> Int in
            record.jwksFetches += 1
            return record.jwksFetches
        }
        let keys = behaviour.jwks(fetch)
        let body = (try? JSONValue.encodeSorted(["keys": keys])) ?? Data()
        return .respond(status: 200, headers: [("Content-Type", "application/json")], body: Array(body))
    }

    private func par(_ form: [String: String]) -> Reply {
        if let refusal = record.withLockedValue({ $0.behaviour.parRefusal }) { return refusal }
        let uri = record.withLockedValue { record -> String in
            record.counter += 1
            let uri = "urn:ietf:params:oauth:request_uri:\(record.counter)"
            record.pushed[uri] = form
            return uri
        }
        return .json(201, "{\"request_uri\":\"\(uri)\",\"expires_in\":60}")
    }

    private func authorize(_ query: [String: String]) -> Reply {
        var parameters = query
        if let uri = query["request_uri"] {
            guard let pushed = record.withLockedValue({ $0.pushed.removeValue(forKey: uri) }) else {
                return .json(400, "{\"error\":\"invalid_request_uri\"}")
            }
            parameters = pushed
        }
        guard parameters["client_id"] == Self.clientID, let redirectURI = parameters["redirect_uri"] else {
            return .json(400, "{\"error\":\"invalid_request\"}")
        }
        let behaviour = self.behaviour
        var reply: [(String, String)] = []
        if let error = behaviour.authorizationError ?? (parameters["code_challenge_method"] == "S256" ? nil : "invalid_request") {
            reply.append(("error", error))
        } else {
            let code = record.withLockedValue { record -> String in
                record.counter += 1
                let code = "code-\(record.counter)"
                record.grants[code] = Grant(parameters: parameters)
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

    // MARK: Tokens

    private func token(_ request: ReceivedRequest) -> Reply {
        let form = request.form
        let grantType = form["grant_type"] ?? ""
        record.withLockedValue { $0.tokenRequests[grantType, default: 0] += 1 }
        guard form["client_id"] == Self.clientID else { return .json(401, "{\"error\":\"invalid_client\"}") }
        var jkt: String?
        if let proof = request.headers.first(name: "DPoP") {
            guard let jws = try? CompactJWS(proof), let key = jws.header.jwk, let verifier = try? JWSVerificationKey(jwk: key),
                (try? jws.verify(with: verifier)) != nil
            else { return .json(400, "{\"error\":\"invalid_dpop_proof\"}") }
            jkt = try? key.thumbprint()
        }
        switch grantType {
        case "authorization_code":
            guard let code = form["code"], let grant = record.withLockedValue({ $0.grants.removeValue(forKey: code) }) else {
                return .json(400, "{\"error\":\"invalid_grant\",\"error_description\":\"unknown or used code\"}")
            }
            guard grant.parameters["redirect_uri"] == form["redirect_uri"],
                let verifier = form["code_verifier"], PKCE.challenge(for: verifier) == grant.parameters["code_challenge"]
            else { return .json(400, "{\"error\":\"invalid_grant\",\"error_description\":\"PKCE or redirect_uri mismatch\"}") }
            if let bound = grant.parameters["dpop_jkt"], bound != jkt {
                return .json(400, "{\"error\":\"invalid_dpop_proof\",\"error_description\":\"dpop_jkt mismatch\"}")
            }
            return issueTokens(nonce: grant.parameters["nonce"], dpopBound: jkt != nil)
        case "refresh_token":
            if let error = behaviour.refreshError { return .json(400, "{\"error\":\"\(error)\"}") }
            guard let token = form["refresh_token"], record.withLockedValue({ $0.validRefreshTokens.remove(token) }) != nil else {
                return .json(400, "{\"error\":\"invalid_grant\",\"error_description\":\"refresh token unknown, used or revoked\"}")
            }
            return issueTokens(nonce: nil, dpopBound: jkt != nil)
        default:
            return .json(400, "{\"error\":\"unsupported_grant_type\"}")
        }
    }

    private func issueTokens(nonce: String?, dpopBound: Bool) -> Reply {
        let behaviour = self.behaviour
        let (accessToken, refreshToken) = record.withLockedValue { record -> (String, String) in
            record.counter += 1
            let pair = ("at-\(record.counter)-\(UUID().uuidString)", "rt-\(record.counter)-\(UUID().uuidString)")
            record.validAccessTokens.insert(pair.0)
            record.validRefreshTokens.insert(pair.1)
            return pair
        }
        let now = Int(Date().timeIntervalSince1970)
        var claims: [String: JSONValue] = [
            "iss": .string(issuer), "sub": .string(Self.subject), "aud": .string(Self.clientID),
            "exp": .integer(now + 300), "iat": .integer(now), "auth_time": .integer(now),
            // ES256 and RS256 both hash with SHA-256.
            "at_hash": .string(TestIDTokenSigner.accessTokenHash(accessToken)),
        ]
        if let nonce { claims["nonce"] = .string(nonce) }
        behaviour.idTokenClaims(&claims)
        let idToken = sign(JSONValue.object(claims).serialized(), behaviour)
        let response: JSONValue = [
            "access_token": .string(accessToken), "token_type": .string(dpopBound ? "DPoP" : "Bearer"),
            "expires_in": .integer(behaviour.accessTokenLifetime), "refresh_token": .string(refreshToken),
            "id_token": .string(idToken), "scope": "openid profile",
        ]
        return .json(200, String(decoding: response.serialized(), as: UTF8.self))
    }

    private func sign(_ payload: Data, _ behaviour: Behaviour) -> String {
        func key(_ key: JWSSigningKey) -> JWSSigningKey {
            var key = key
            if !behaviour.includeKid { key.keyID = nil }
            return key
        }
        var token: String
        switch behaviour.signing {
        case .es256: token = TestIDTokenSigner.sign(payload, with: key(.es256(Self.es1, keyID: TestIDTokenSigner.keyID)))
        case .es256Rotated: token = TestIDTokenSigner.sign(payload, with: key(.es256(Self.es2, keyID: "es-2")))
        case .unpublishedKey: token = TestIDTokenSigner.sign(payload, with: key(.es256(P256.Signing.PrivateKey(), keyID: "es-unknown")))
        case .rs256: token = try! CompactJWS.sign(payload: payload, header: JOSEHeader(algorithm: .rs256, typ: "JWT"), key: key(try! .rsa(Self.rs, keyID: "rs-1")))
        case .hs256WithPublicKey:
            // The classic algorithm-confusion forgery: the provider's public key used as an HMAC secret.
            let secret = Data(Self.rs.publicKey.pemRepresentation.utf8)
            token = try! CompactJWS.sign(payload: payload, header: JOSEHeader(algorithm: .hs256, typ: "JWT"), key: key(try! .hs256(secret: secret, keyID: "rs-1")))
        case .none:
            token = Base64URL.encode(Data("{\"alg\":\"none\",\"typ\":\"JWT\"}".utf8)) + "." + Base64URL.encode(payload) + "."
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

    // MARK: Resources

    private func bearer(_ request: ReceivedRequest) -> String? {
        guard let value = request.headers.first(name: "Authorization") else { return nil }
        record.withLockedValue { $0.apiAuthorizations.append(value) }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, ["bearer", "dpop"].contains(parts[0].lowercased()) else { return nil }
        let token = String(parts[1])
        return record.withLockedValue { $0.validAccessTokens.contains(token) } ? token : nil
    }

    private func userInfo(_ request: ReceivedRequest) -> Reply {
        guard bearer(request) != nil else {
            return .respond(status: 401, headers: [("WWW-Authenticate", "Bearer error=\"invalid_token\"")])
        }
        let subject = behaviour.userInfoSubject ?? Self.subject
        return .json(200, "{\"sub\":\"\(subject)\",\"email\":\"user@example.test\"}")
    }

    private func resource(_ request: ReceivedRequest) -> Reply {
        guard bearer(request) != nil else {
            return .respond(status: 401, headers: [("WWW-Authenticate", "Bearer error=\"invalid_token\"")])
        }
        return .json(200, "{\"ok\":true}")
    }
}
