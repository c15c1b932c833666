import Crypto
import Foundation
import NIOHTTP1
import OAuthCore
import OIDCClient
import Synchronization
import OAuthTransportNIO

/// The ID-token signing key of the tests' OpenID Providers (the OIDCClient tests' provider and
/// the fault matrix's ``FaultServer``), so that every ID token they issue verifies against
/// the key set they publish.
public enum TestIDTokenSigner {
    /// The ES256 private key.
    public static let key = P256.Signing.PrivateKey()
    /// Its `kid`.
    public static let keyID = "es-1"
    /// Its public JWK, as published at `jwks_uri`.
    public static let publicJWK = JWSSigningKey.es256(key, keyID: keyID).publicJWK!
    /// A JWK Set holding only ``publicJWK``.
    public static let keySetJSON = String(decoding: (try? JSONValue.encodeSorted(["keys": [publicJWK]])) ?? Data(), as: UTF8.self)

    /// `claims` as a compact JWS signed with ``key``.
    public static func sign(_ claims: [String: JSONValue]) -> String {
        sign(JSONValue.object(claims).serialized(), with: .es256(key, keyID: keyID))
    }

    /// `payload` signed with `key` as an ES256 JWT (`alg` ES256, `typ` JWT).
    public static func sign(_ payload: Data, with key: JWSSigningKey) -> String {
        try! CompactJWS.sign(payload: payload, header: JOSEHeader(algorithm: .es256, typ: "JWT"), key: key)
    }

    /// The `at_hash` of an access token for an ES256 or RS256 ID token (OpenID Connect Core
    /// §3.1.3.6), computed independently of the client's code.
    public static func accessTokenHash(_ token: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Data(token.utf8))).prefix(16))
    }
}

/// What the ID tokens of an OpenID ``FaultEndpoint/tokenEndpoint(lifetime:idTokens:)`` say.
public struct TestIDTokenClaims: Sendable {
    /// `aud`.
    public var clientID: String
    /// `sub`.
    public var subject: String
    /// From `iat` to `exp`, in seconds. Short by default, so that a server 5 minutes behind
    /// (``ServerFault/clockFiveMinutesOff``) issues tokens already expired by more than the
    /// clients' default clock skew of 2 minutes.
    public var lifetime: Int

    /// Claims for `clientID` about `subject`.
    public init(clientID: String, subject: String, lifetime: Int = 120) {
        self.clientID = clientID
        self.subject = subject
        self.lifetime = lifetime
    }
}

extension FaultEndpoint.Context {
    /// `http://` and the request's `Host`: the server's own origin, which is the issuer of
    /// an OpenID ``FaultServer`` (its port is not known when its endpoints are made).
    public var origin: String { "http://" + (request.headers.first(name: "Host") ?? "127.0.0.1") }

    /// The request's form body (first value of each name).
    var form: [String: String] { request.form }

    /// The request's query parameters (first value of each name).
    var query: [String: String] { request.query }
}

extension FaultEndpoint {
    /// An OpenID Provider's discovery document naming the server's own authorization, token
    /// and revocation endpoints (`/authorize`, `/token`, `/revoke`), and `jwks_uri` and
    /// `userinfo_endpoint` on `resourceServer` (`/jwks`, `/userinfo`), a second ``FaultServer``
    /// that can be refused without taking the token endpoint down.
    public static func openIDConfiguration(resourceServer: URL) -> FaultEndpoint {
        FaultEndpoint(mediaType: "application/json", nonceChallenge: .resourceServer) { context in
            let resources = resourceServer.absoluteString.hasSuffix("/")
                ? String(resourceServer.absoluteString.dropLast()) : resourceServer.absoluteString
            let document: JSONValue = [
                "issuer": .string(context.origin),
                "authorization_endpoint": .string(context.origin + "/authorize"),
                "token_endpoint": .string(context.origin + "/token"),
                "revocation_endpoint": .string(context.origin + "/revoke"),
                "jwks_uri": .string(resources + "/jwks"),
                "userinfo_endpoint": .string(resources + "/userinfo"),
                "response_types_supported": ["code"],
                "id_token_signing_alg_values_supported": ["ES256"],
                "code_challenge_methods_supported": ["S256"],
                "dpop_signing_alg_values_supported": ["ES256"],
                "authorization_response_iss_parameter_supported": .bool(true),
            ]
            return .text(200, String(decoding: document.serialized(), as: UTF8.self), headers: [("Content-Type", "application/json")])
        }
    }

    /// ``TestIDTokenSigner``'s key set, for `jwks_uri`.
    public static let keySet = FaultEndpoint.document(TestIDTokenSigner.keySetJSON, mediaType: "application/json", nonceChallenge: .resourceServer)

    /// An authorization endpoint that lets everyone in at once: it redirects to the request's
    /// `redirect_uri` with its `state`, the server's origin as `iss` (RFC 9207), and a code
    /// that carries the request's `nonce` to the token endpoint (so no state is shared).
    public static let authorizationEndpoint = FaultEndpoint(mediaType: "text/html", nonceChallenge: .authorizationServer) { context in
        let query = context.query
        guard let redirectURI = query["redirect_uri"] else { return .text(400, "no redirect_uri") }
        let code = "code-\(context.number)." + Base64URL.encode(Data((query["nonce"] ?? "").utf8))
        let parameters = [("code", code), ("state", query["state"] ?? ""), ("iss", context.origin)]
        return .respond(status: 302, headers: [("Location", redirectURI + "?" + FormURLEncoding.encode(parameters))])
    }

    /// The ID token a token response carries: signed by ``TestIDTokenSigner``, issued by the
    /// server's origin at the server's time, with the `nonce` an ``authorizationEndpoint``
    /// code carries and the access token's `at_hash`.
    static func signedIDToken(_ claims: TestIDTokenClaims, accessToken: String, context: Context) -> String {
        let iat = Int(context.serverNow.timeIntervalSince1970)
        var members: [String: JSONValue] = [
            "iss": .string(context.origin), "sub": .string(claims.subject), "aud": .string(claims.clientID),
            "iat": .integer(iat), "exp": .integer(iat + claims.lifetime), "at_hash": .string(TestIDTokenSigner.accessTokenHash(accessToken)),
        ]
        if context.form["grant_type"] == "authorization_code", let code = context.form["code"],
            let carried = code.split(separator: ".").last.flatMap({ Base64URL.decode($0) }), !carried.isEmpty
        {
            members["nonce"] = .string(String(decoding: carried, as: UTF8.self))
        }
        return TestIDTokenSigner.sign(members)
    }
}

/// A browser for tests: follows the provider's redirects (without running any page) until it
/// reaches a page that does not redirect, such as the loopback listener's.
public struct HeadlessBrowser: BrowserLauncher {
    /// Every URL it opened, for assertions.
    public let opened = LockedList<URL>()

    /// A browser that has opened nothing yet.
    public init() {}

    public func open(_ url: URL) async throws {
        opened.append(url)
        // A real browser runs on its own; the login waits for the redirect, not for this.
        Task {
            var next: URL? = url
            var hops = 0
            while let current = next, hops < 10 {
                hops += 1
                let response = try await AsyncHTTPClientTransport().send(TransportRequest(url: current))
                next = (300..<400).contains(response.status) ? response.headers["Location"].flatMap { URL(string: $0, relativeTo: current) } : nil
            }
        }
    }
}

/// A thread-safe list.
public final class LockedList<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])

    /// An empty list.
    public init() {}

    /// Appends `item`.
    public func append(_ item: Element) { items.withLock { $0.append(item) } }
    /// Every item, in order.
    public var all: [Element] { items.withLock { $0 } }
}
