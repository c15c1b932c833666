import Foundation
import NIOHTTP1
import OAuthCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One way a server can misbehave: the rows of issue 8's fault matrix.
///
/// Each fault is made by a real ``TestServer`` (see ``FaultServer``), so the client under test
/// goes through its real transport. Which faults apply, and which error each must end in, is
/// up to the component's tests: this table only knows how to misbehave.
///
/// To add a component: depend on `HaapiTesting`, start a ``FaultServer`` with its
/// endpoints (``FaultEndpoint/tokenEndpoint(lifetime:)``,
/// ``FaultEndpoint/document(_:mediaType:nonceChallenge:)``, ``FaultEndpoint/revocationEndpoint``),
/// or for an OpenID Provider a ``TestOpenIDProvider``, whose every path is such an endpoint;
/// write one table of (fault, expected error code, recovery suggestion) rows, and run each row
/// with ``FaultServer/inject(_:at:times:)`` (``TestOpenIDProvider/inject(_:at:times:)``) in a
/// parameterized test (see Tests/FaultTests).
public enum ServerFault: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Nothing listens: the connection is refused (``FaultServer/inject(_:at:times:)`` stops the server).
    case connectionRefused
    /// The head promises a body; the connection is closed after a few bytes of it.
    case connectionResetMidBody
    /// The request is read and never answered: only the client's timeout ends it.
    case noResponse
    /// HTTP 500 with an OAuth-style JSON error (`server_error`).
    case internalServerError
    /// HTTP 503, empty body, `Retry-After: 7` (``ServerFault/retryAfterSeconds``).
    case serviceUnavailableWithRetryAfter
    /// HTTP 429, empty body, no `Retry-After`.
    case tooManyRequests
    /// HTTP 200 with the endpoint's JSON media type and a body that is not JSON.
    case bodyNotJSON
    /// HTTP 200 with the endpoint's healthy body, labelled `text/plain`.
    case wrongContentType
    /// HTTP 502 with a reverse proxy's HTML error page.
    case htmlErrorPage
    /// Every request is answered with a `use_dpop_nonce` challenge and a new `DPoP-Nonce`.
    case endlessDPoPNonce
    /// HTTP 401 `WWW-Authenticate: DPoP error="invalid_token"`: the access token has expired.
    case expiredAccessToken
    /// The server's clock is ``ServerFault/clockOffset`` off ours: its `Date`, the `iat`/`exp`
    /// of the tokens it issues, and the DPoP proof times it accepts without a nonce.
    case clockFiveMinutesOff
    /// HTTP 400 `invalid_grant`: the code or refresh token is no longer valid.
    case invalidGrant

    /// The `Retry-After` of ``serviceUnavailableWithRetryAfter``, in seconds.
    public static let retryAfterSeconds = 7
    /// How far the server's clock is from ours with ``clockFiveMinutesOff``: behind, the
    /// direction in which a client judging expiry by the server's clock sees fresh tokens as expired.
    public static let clockOffset: TimeInterval = -300
    /// How far a DPoP proof's `iat` may be from the server's clock before the server asks for a nonce.
    public static let acceptedProofSkew: TimeInterval = 60

    public var description: String { rawValue }
}

/// How an endpoint answers when it is healthy, and how it asks for a DPoP nonce.
public struct FaultEndpoint: Sendable {
    /// How a server asks for a DPoP nonce (RFC 9449 §8 and §9).
    public enum NonceChallenge: Sendable {
        /// An authorization server: 400 `{"error":"use_dpop_nonce"}`.
        case authorizationServer
        /// A resource server: 401 `WWW-Authenticate: DPoP error="use_dpop_nonce"`.
        case resourceServer
    }

    /// What a healthy answer is made from.
    public struct Context: Sendable {
        /// The request.
        public let request: ReceivedRequest
        /// The server's clock.
        public let serverNow: Date
        /// Which request to this path this is, from 1.
        public let number: Int
    }

    /// The media type of the endpoint's JSON answers (and of ``ServerFault/bodyNotJSON``).
    public let mediaType: String
    /// How it asks for a nonce.
    public let nonceChallenge: NonceChallenge
    /// The healthy answer.
    public let healthy: @Sendable (Context) -> Reply

    /// An endpoint.
    public init(mediaType: String, nonceChallenge: NonceChallenge, healthy: @escaping @Sendable (Context) -> Reply) {
        self.mediaType = mediaType
        self.nonceChallenge = nonceChallenge
        self.healthy = healthy
    }

    /// An OAuth token endpoint issuing DPoP-bound tokens: each `access_token` is a JWT-shaped
    /// string whose `iat` and `exp` follow the server's clock, `expires_in` is `lifetime`, and
    /// each `refresh_token` is new (`rt-<number>`). (An OpenID Provider's, with ID tokens, is
    /// ``TestOpenIDProvider``'s.)
    public static func tokenEndpoint(lifetime: Int = 300) -> FaultEndpoint {
        FaultEndpoint(mediaType: "application/json", nonceChallenge: .authorizationServer) { context in
            let iat = Int(context.serverNow.timeIntervalSince1970)
            let claims = #"{"jti":"at-\#(context.number)","iat":\#(iat),"exp":\#(iat + lifetime)}"#
            let accessToken = "eyJhbGciOiJub25lIn0." + Base64URL.encode(Data(claims.utf8)) + ".sig"
            let body =
                #"{"access_token":"\#(accessToken)","token_type":"DPoP","expires_in":\#(lifetime),"refresh_token":"rt-\#(context.number)","scope":"openid"}"#
            return .text(200, body, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")])
        }
    }

    /// An endpoint that answers every healthy request with `body` of `mediaType`.
    public static func document(_ body: String, mediaType: String, nonceChallenge: NonceChallenge) -> FaultEndpoint {
        FaultEndpoint(mediaType: mediaType, nonceChallenge: nonceChallenge) { _ in
            .text(200, body, headers: [("Content-Type", mediaType)])
        }
    }

    /// An RFC 7009 revocation endpoint: 200 with an empty body.
    public static let revocationEndpoint = FaultEndpoint(mediaType: "application/json", nonceChallenge: .authorizationServer) { _ in
        .respond(status: 200)
    }

    /// What the endpoint answers with `fault` active (never called for ``ServerFault/connectionRefused``).
    func reply(_ fault: ServerFault, _ context: Context) -> Reply {
        switch fault {
        case .connectionRefused, .noResponse:
            return .hang
        case .connectionResetMidBody:
            return .closeMidBody(declaredLength: 512, sent: Array(#"{"access_token":"eyJhbGciOi"#.utf8))
        case .internalServerError:
            return .text(
                500, #"{"error":"server_error","error_description":"the server failed"}"#, headers: [("Content-Type", "application/json")])
        case .serviceUnavailableWithRetryAfter:
            return .respond(status: 503, headers: [("Retry-After", String(ServerFault.retryAfterSeconds))])
        case .tooManyRequests:
            return .respond(status: 429)
        case .bodyNotJSON:
            return .text(200, "this is {not JSON", headers: [("Content-Type", mediaType)])
        case .wrongContentType:
            // Asked once: a stateful endpoint (a provider's token endpoint) spends a code or a token per answer.
            let answer = healthy(context)
            guard case .respond(let status, let headers, let body) = answer else { return answer }
            let relabelled = headers.filter { $0.0.lowercased() != "content-type" } + [("Content-Type", "text/plain")]
            return .respond(status: status, headers: relabelled, body: body)
        case .htmlErrorPage:
            return .text(
                502, "<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><hr>nginx</body></html>",
                headers: [("Content-Type", "text/html")])
        case .endlessDPoPNonce:
            return nonceChallenge(nonce: "nonce-\(context.number)")
        case .expiredAccessToken:
            return .respond(
                status: 401,
                headers: [("WWW-Authenticate", #"DPoP error="invalid_token", error_description="The access token expired""#)])
        case .clockFiveMinutesOff:
            // Like a server following RFC 9449 §11.1: a proof too far from its clock needs a nonce.
            if let proof = context.request.headers.first(name: "DPoP").flatMap(DPoPProofClaims.init),
                proof.nonce == nil, abs(proof.issuedAt.timeIntervalSince(context.serverNow)) > ServerFault.acceptedProofSkew
            {
                return nonceChallenge(nonce: "skew-nonce-\(context.number)")
            }
            let answer = healthy(context)
            guard case .respond(let status, let headers, let body) = answer else { return answer }
            return .respond(status: status, headers: headers + [("Date", httpDate(context.serverNow))], body: body)
        case .invalidGrant:
            return .text(
                400, #"{"error":"invalid_grant","error_description":"the grant is no longer valid"}"#,
                headers: [("Content-Type", "application/json")])
        }
    }

    private func nonceChallenge(nonce: String) -> Reply {
        switch nonceChallenge {
        case .authorizationServer:
            return .text(
                400, #"{"error":"use_dpop_nonce","error_description":"a DPoP nonce is required"}"#,
                headers: [("Content-Type", "application/json"), ("DPoP-Nonce", nonce)])
        case .resourceServer:
            return .respond(
                status: 401,
                headers: [
                    ("WWW-Authenticate", #"DPoP error="use_dpop_nonce", error_description="a DPoP nonce is required""#),
                    ("DPoP-Nonce", nonce),
                ])
        }
    }
}

/// A ``TestServer`` serving ``FaultEndpoint``s by path, each healthy until a fault is injected.
///
/// Use one `FaultServer` per host the client talks to: ``ServerFault/connectionRefused`` stops
/// the whole server.
public final class FaultServer: Sendable {
    private struct Injected {
        var fault: ServerFault
        /// How many more requests get the fault; `nil`: all.
        var remaining: Int?
    }

    private struct State {
        var faults: [String: Injected] = [:]
        var counts: [String: Int] = [:]
        var clockOffset: TimeInterval = 0
    }

    /// The server underneath, for its request log.
    public let server: TestServer
    private let box: StateBox
    /// A socket bound, never listening, to the stopped server's port: connecting is refused,
    /// and no other test's server can take the port meanwhile (and answer in its place).
    private let reservation = Mutex<Int32?>(nil)

    private init(server: TestServer, box: StateBox) {
        self.server = server
        self.box = box
    }

    /// Starts a server answering `endpoints` (path → endpoint); other paths get 404.
    public static func start(_ endpoints: [String: FaultEndpoint]) async throws -> FaultServer {
        let box = StateBox()
        let server = try await TestServer.start { request in
            guard let endpoint = endpoints[request.path] else { return .text(404, "no such endpoint") }
            let (fault, number, offset) = box.next(for: request.path)
            let context = FaultEndpoint.Context(request: request, serverNow: Date().addingTimeInterval(offset), number: number)
            return fault.map { endpoint.reply($0, context) } ?? endpoint.healthy(context)
        }
        return FaultServer(server: server, box: box)
    }

    /// The absolute URL of `path` on this server.
    public func url(_ path: String) -> URL { URL(string: server.url + path)! }

    /// Makes `path` misbehave for the next `times` requests (all of them when `nil`);
    /// `nil` heals it. ``ServerFault/connectionRefused`` stops the server at once, and
    /// ``ServerFault/clockFiveMinutesOff`` sets the clock of every path.
    public func inject(_ fault: ServerFault?, at path: String, times: Int? = nil) async {
        box.state.withLock { state in
            state.faults[path] = fault.map { Injected(fault: $0, remaining: times) }
            state.clockOffset = fault == .clockFiveMinutesOff ? ServerFault.clockOffset : 0
        }
        if fault == .connectionRefused {
            await server.stop()
            reservation.withLock { $0 = Self.reserve(port: URL(string: server.url)?.port) }
            // Give the client's connection pool time to see its idle connections closed, so the
            // next request is refused rather than sent on a pooled connection found dead.
            try? await Task.sleep(for: .milliseconds(100))
        }
    }

    /// The requests received at `path`, in order.
    public func requests(to path: String) -> [ReceivedRequest] { server.requests.filter { $0.path == path } }

    /// Stops the server.
    public func stop() async {
        await server.stop()
        reservation.withLock { socket in
            if let socket { close(socket) }
            socket = nil
        }
    }

    /// A TCP socket bound to loopback `port` and never listening; `nil` when it cannot be bound.
    private static func reserve(port: Int?) -> Int32? {
        guard let port else { return nil }
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return nil }
        var yes: Int32 = 1
        // The stopped server's connections may linger in TIME_WAIT on the port.
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard withLoopbackAddress(port: port, { bind(socket, $0, $1) }) == 0 else {
            close(socket)
            return nil
        }
        return socket
    }

    /// The mutable state, shared with the reply closure (which runs on an event loop).
    private final class StateBox: Sendable {
        let state = Mutex(State())

        func next(for path: String) -> (ServerFault?, Int, TimeInterval) {
            state.withLock { state in
                state.counts[path, default: 0] += 1
                var fault: ServerFault?
                if var injected = state.faults[path] {
                    fault = injected.fault
                    if let remaining = injected.remaining {
                        injected.remaining = remaining - 1
                        state.faults[path] = remaining > 1 ? injected : nil
                    }
                }
                return (fault, state.counts[path]!, state.clockOffset)
            }
        }
    }
}

/// Runs `body` with a started ``FaultServer``, stopped afterwards whatever happens.
public func withFaultServer<T>(
    _ endpoints: [String: FaultEndpoint], _ body: (FaultServer) async throws -> T
) async throws -> T {
    try await withStopping(try await FaultServer.start(endpoints), stop: { await $0.stop() }, body)
}

/// The claims of a DPoP proof the server looks at (the signature is not checked: the
/// clients' proofs are verified by the dev server's own tests).
public struct DPoPProofClaims: Sendable {
    /// `iat`.
    public let issuedAt: Date
    /// `nonce`, when present.
    public let nonce: String?

    /// Reads the payload of a compact JWS; `nil` when it is not one.
    public init?(_ compact: String) {
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(parts[1]),
            let claims = try? JSONSerialization.jsonObject(with: payload) as? [String: Any],
            let iat = claims["iat"] as? NSNumber
        else { return nil }
        issuedAt = Date(timeIntervalSince1970: iat.doubleValue)
        nonce = claims["nonce"] as? String
    }
}

/// An RFC 9110 HTTP-date (`Sun, 06 Nov 1994 08:49:37 GMT`).
public func httpDate(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: date)
}

/// Calls `body` with the IPv4 loopback address of `port` and its length (for bind and connect).
public func withLoopbackAddress(port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
}
