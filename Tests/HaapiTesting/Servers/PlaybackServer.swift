import Crypto
import Foundation
import NIOHTTP1
import OAuthCore
import Synchronization

/// A HAAPI server that plays recorded responses as a flow: the authorization request gets the
/// first step, and each following request to the HAAPI API gets the next one, in order, as a
/// real Curity server sent them. The recorded hosts are rewritten to this server, so every
/// `href` the client follows comes back here.
///
/// It also answers what a client needs around the flow: the token endpoint (a HAAPI access
/// token for client credentials, tokens for the recorded authorization code) and the browser's
/// visit to an external-browser launch URL (a redirect to the app's `redirect_uri` with a
/// `_resume_nonce`). A request that is not the one a scene expects gets a 400 problem naming
/// both, so a client that takes a wrong turn fails visibly.
public final class PlaybackServer: Sendable {
    /// One recorded response and the request it answers.
    public struct Scene: Sendable {
        /// The method and path (no query) the request must have, when checked.
        public var expecting: (method: String, path: String)?
        /// Form fields (query or body) the request must carry, with their values.
        public var requiring: [String: String]
        /// The recorded body.
        public var body: String
        /// `application/vnd.auth+json` for steps, `application/problem+json` for problems.
        public var contentType: String
        /// The status to answer with.
        public var status: Int

        /// A recorded step (or problem: a body whose `type` is an absolute URI is sent as a problem, with status 400).
        public init(_ body: String, expecting: (method: String, path: String)? = nil, requiring: [String: String] = [:]) {
            self.body = body
            self.expecting = expecting
            self.requiring = requiring
            let isProblem =
                (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["type"]
                .flatMap { $0 as? String }.map { $0.hasPrefix("https://") || $0.hasPrefix("http://") } ?? false
            contentType = isProblem ? "application/problem+json" : "application/vnd.auth+json"
            status = isProblem ? 400 : 200
        }
    }

    /// The nonce the launch URL's redirect carries back to the app.
    public static let resumeNonce = "playback-resume-nonce"
    /// The path of the authorization endpoint; the flow starts here.
    public static let authorizePath = "/oauth/authorize"
    /// The path of the token endpoint.
    public static let tokenPath = "/oauth/token"

    /// The OpenID Provider around the flow: discovery (`/.well-known/openid-configuration`,
    /// this server as the issuer), its key set (`/jwks`), and an ID token with the code's tokens,
    /// for `subject`, carrying the authorization request's nonce, or forged as `forgery` says.
    public struct Identity: Sendable {
        /// What is wrong with the ID token.
        public enum Forgery: String, Sendable, CaseIterable {
            case none, algNone, expired, wrongAudience, wrongIssuer, wrongNonce, noNonce, otherKey
        }
        public var subject: String
        public var forgery: Forgery
        public init(subject: String = "demo", forgery: Forgery = .none) {
            self.subject = subject
            self.forgery = forgery
        }
    }

    private struct State {
        var next = 0
        var refusals: [String] = []
        var nonce: String?
    }

    private let scenes: [Scene]
    private let state = Mutex(State())
    private let hosts: [String]
    private let identity: Identity?
    private let server = Mutex<TestServer?>(nil)

    /// A server for `scenes`; `hosts` are the recorded origins rewritten to this server (by
    /// default every `https://…ngrok.io` origin, as in Curity's captured responses).
    private init(scenes: [Scene], hosts: [String], identity: Identity?) {
        self.scenes = scenes
        self.hosts = hosts
        self.identity = identity
    }

    /// Starts a server playing `scenes`, an OpenID Provider too when `identity` is given.
    public static func start(_ scenes: [Scene], hosts: [String] = [], identity: Identity? = nil) async throws -> PlaybackServer {
        let playback = PlaybackServer(scenes: scenes, hosts: hosts, identity: identity)
        let server = try await TestServer.start { [playback] request in playback.answer(request) }
        playback.server.withLock { $0 = server }
        return playback
    }

    /// Runs `body` with a started server and stops it afterwards.
    public static func with<T>(_ scenes: [Scene], hosts: [String] = [], _ body: (PlaybackServer) async throws -> T) async throws -> T {
        try await withStopping(try await start(scenes, hosts: hosts), stop: { await $0.stop() }, body)
    }

    /// `http://127.0.0.1:<port>`.
    public var url: String { server.withLock { $0!.url } }
    /// Every request received, in order.
    public var requests: [ReceivedRequest] { server.withLock { $0!.requests } }
    /// How many scenes have been played.
    public var played: Int { state.withLock { $0.next } }
    /// Why requests were refused (wrong method, path or fields; nothing left to play).
    public var refusals: [String] { state.withLock { $0.refusals } }

    /// The requests to the HAAPI API (not the token endpoint, not the browser's launch visits).
    public var flowRequests: [ReceivedRequest] {
        requests.filter { $0.path != Self.tokenPath && !$0.uri.contains("_launch_nonce") }
    }

    /// Stops the server.
    public func stop() async {
        await server.withLock { $0 }?.stop()
    }

    // MARK: Answers

    private func answer(_ request: ReceivedRequest) -> Reply {
        if request.path == Self.tokenPath { return token(request) }
        if identity != nil, request.path == "/.well-known/openid-configuration" {
            return json([
                "issuer": url, "authorization_endpoint": url + Self.authorizePath, "token_endpoint": url + Self.tokenPath,
                "jwks_uri": url + "/jwks",
                "response_types_supported": ["code"], "subject_types_supported": ["public"],
                "id_token_signing_alg_values_supported": ["ES256"],
            ])
        }
        if identity != nil, request.path == "/jwks" {
            return .text(200, TestIDTokenSigner.keySetJSON, headers: [("Content-Type", "application/json")])
        }
        if request.path == Self.authorizePath { state.withLock { $0.nonce = Self.query(request.uri)["nonce"] } }
        if let launch = launchRedirect(request) { return launch }
        let index = state.withLock { state -> Int in
            defer { state.next += 1 }
            return state.next
        }
        guard index < scenes.count else { return refuse("nothing left to play for \(request.method) \(request.path)") }
        let scene = scenes[index]
        if let expected = scene.expecting, expected.method != request.method || expected.path != request.path {
            return refuse("scene \(index + 1) expects \(expected.method) \(expected.path), got \(request.method) \(request.path)")
        }
        let fields = Self.fields(of: request)
        for (name, value) in scene.requiring.sorted(by: { $0.key < $1.key }) where fields[name] != value {
            return refuse("scene \(index + 1) expects \(name)=\(value), got \(fields[name].map { "\(name)=\($0)" } ?? "no \(name)")")
        }
        return .text(scene.status, rewrite(scene.body), headers: [("Content-Type", scene.contentType)])
    }

    /// The recorded body with its hosts pointing here.
    private func rewrite(_ body: String) -> String {
        var text = body
        let origin = url
        for host in hosts { text = text.replacingOccurrences(of: host, with: origin) }
        if let pattern = try? NSRegularExpression(pattern: #"https://[A-Za-z0-9.-]+\.ngrok\.io"#) {
            text = pattern.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: origin)
        }
        return text
    }

    /// A browser visiting a launch URL (`_launch_nonce`, or any URL with a `redirect_uri` that
    /// is not the authorization request) goes back to the app with the resume nonce.
    private func launchRedirect(_ request: ReceivedRequest) -> Reply? {
        guard request.method == "GET", request.path != Self.authorizePath else { return nil }
        let query = Self.query(request.uri)
        guard query["_launch_nonce"] != nil || (query["redirect_uri"] != nil && query["_resume_nonce"] == nil),
            let redirect = query["redirect_uri"], var back = URLComponents(string: redirect)
        else { return nil }
        back.queryItems = (back.queryItems ?? []) + [URLQueryItem(name: "_resume_nonce", value: Self.resumeNonce)]
        return .respond(status: 302, headers: [("Location", back.string ?? redirect), ("Content-Length", "0")])
    }

    private func token(_ request: ReceivedRequest) -> Reply {
        let fields = Self.form(String(decoding: request.body, as: UTF8.self))
        let tokenType = request.headers["DPoP"].isEmpty ? "Bearer" : "DPoP"
        switch fields["grant_type"] {
        case "client_credentials":
            return json([
                "access_token": "playback-haapi-token-\(UUID().uuidString)", "token_type": tokenType, "expires_in": 600,
                "scope": "urn:se:curity:scopes:haapi",
            ])
        case "authorization_code":
            guard let code = fields["code"], scenes.contains(where: { $0.body.contains(code) }) else {
                return .text(400, #"{"error":"invalid_grant"}"#, headers: [("Content-Type", "application/json")])
            }
            var tokens: [String: Any] = [
                "access_token": "playback-access-token", "token_type": tokenType, "expires_in": 300,
                "refresh_token": "playback-refresh-token",
                "scope": "openid",
            ]
            if let identity { tokens["id_token"] = idToken(identity, clientID: fields["client_id"] ?? Self.basicClientID(request) ?? "") }
            return json(tokens)
        default:
            return .text(400, #"{"error":"unsupported_grant_type"}"#, headers: [("Content-Type", "application/json")])
        }
    }

    /// An ID token for `identity`, signed with the tests' key unless forged otherwise.
    private func idToken(_ identity: Identity, clientID: String) -> String {
        let now = Int(Date().timeIntervalSince1970)
        var claims: [String: JSONValue] = [
            "iss": .string(url), "sub": .string(identity.subject), "aud": .string(clientID), "iat": .integer(now),
            "exp": .integer(now + 300),
        ]
        if let nonce = state.withLock({ $0.nonce }) { claims["nonce"] = .string(nonce) }
        switch identity.forgery {
        case .none: break
        case .expired:
            claims["iat"] = .integer(now - 7200)
            claims["exp"] = .integer(now - 3600)
        case .wrongAudience: claims["aud"] = "someone-else"
        case .wrongIssuer: claims["iss"] = "https://evil.example"
        case .wrongNonce: claims["nonce"] = "not-the-nonce-sent"
        case .noNonce: claims["nonce"] = nil
        case .algNone:
            let header = Base64URL.encode(Data(#"{"alg":"none","typ":"JWT"}"#.utf8))
            return header + "." + Base64URL.encode(JSONValue.object(claims).serialized()) + "."
        case .otherKey:
            return TestIDTokenSigner.sign(
                JSONValue.object(claims).serialized(), with: .es256(P256.Signing.PrivateKey(), keyID: TestIDTokenSigner.keyID))
        }
        return TestIDTokenSigner.sign(claims)
    }

    private static func basicClientID(_ request: ReceivedRequest) -> String? {
        guard let header = request.headers["Authorization"].first, header.lowercased().hasPrefix("basic "),
            let decoded = Data(base64Encoded: String(header.dropFirst(6))).map({ String(decoding: $0, as: UTF8.self) })
        else { return nil }
        return decoded.split(separator: ":", maxSplits: 1).first.map { String($0).removingPercentEncoding ?? String($0) }
    }

    private func json(_ members: [String: Any]) -> Reply {
        let body = (try? JSONSerialization.data(withJSONObject: members)) ?? Data()
        return .respond(status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")], body: Array(body))
    }

    private func refuse(_ reason: String) -> Reply {
        state.withLock { $0.refusals.append(reason) }
        let problem: [String: Any] = ["type": "https://curity.se/problems/unexpected", "title": "Playback: \(reason)"]
        let body = (try? JSONSerialization.data(withJSONObject: problem)) ?? Data()
        return .respond(status: 400, headers: [("Content-Type", "application/problem+json")], body: Array(body))
    }

    // MARK: Form fields

    /// The fields of a request: its query, and its body (form-encoded, or a JSON object for
    /// forms of type `application/json`, its values as text).
    public static func fields(of request: ReceivedRequest) -> [String: String] {
        var body: [String: String]
        if request.headers["Content-Type"].first?.lowercased().hasPrefix("application/json") == true,
            let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]
        {
            body = [:]
            for (name, value) in object { body[name] = value as? String ?? String(describing: value) }
        } else {
            body = form(String(decoding: request.body, as: UTF8.self))
        }
        return query(request.uri).merging(body) { _, body in body }
    }

    public static func query(_ uri: String) -> [String: String] {
        guard let mark = uri.firstIndex(of: "?") else { return [:] }
        return form(String(uri[uri.index(after: mark)...]))
    }

    static func form(_ text: String) -> [String: String] {
        Dictionary(FormURLEncoding.decode(text), uniquingKeysWith: { _, last in last })
    }
}
