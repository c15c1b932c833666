import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import OAuthCore
import Synchronization

/// What the test server does with a request.
public enum Reply: Sendable {
    /// Sends a complete response (a `Content-Length` is added unless `headers` has one or a `Transfer-Encoding`).
    case respond(status: Int, headers: [(String, String)] = [], body: [UInt8] = [])
    /// Never answers (the connection stays open until the server stops).
    case hang
    /// Sends a head declaring `declaredLength` body bytes, then `sent` bytes, then closes the connection.
    case closeMidBody(declaredLength: Int, sent: [UInt8])
    /// Sends a head declaring `declaredLength` body bytes and `sent` bytes, then nothing more.
    case stallMidBody(declaredLength: Int, sent: [UInt8])

    /// A complete response with a UTF-8 text body.
    public static func text(_ status: Int, _ body: String, headers: [(String, String)] = []) -> Reply {
        .respond(status: status, headers: headers, body: Array(body.utf8))
    }

    /// A complete response with a JSON body, given as text.
    public static func json(_ status: Int, _ body: String) -> Reply {
        .text(status, body, headers: [("Content-Type", "application/json")])
    }

    /// A `302 Found` to `location`.
    public static func redirect(_ location: String) -> Reply {
        .respond(status: 302, headers: [("Location", location)])
    }
}

/// A request as the test server received it.
public struct ReceivedRequest: Sendable {
    /// The method, as sent.
    public var method: String
    /// The request target (path and query).
    public var uri: String
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body.
    public var body: [UInt8]
    /// The subject of the client certificate, when TLS had one.
    public var clientCertificateSubject: String?

    /// The path of ``uri``, without the query.
    public var path: String { String(uri.prefix { $0 != "?" }) }

    /// The query of ``uri``, decoded (the first value of each name).
    public var query: [String: String] {
        FormURLEncoding.firstValues(uri.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? "")
    }

    /// The body as form parameters (the first value of each name).
    public var form: [String: String] { FormURLEncoding.firstValues(String(decoding: body, as: UTF8.self)) }
}

/// A real HTTP/1.1 server (optionally over TLS) on 127.0.0.1, on a free port.
public final class TestServer: Sendable {
    private let state: TestServerState
    private let listener: any Channel
    /// The port it listens on.
    public let port: Int

    private init(state: TestServerState, listener: any Channel) {
        self.state = state
        self.listener = listener
        self.port = listener.localAddress!.port!
    }

    /// Starts a server on `host` (127.0.0.1 unless told); `reply` chooses the answer to each request.
    /// A `silent` server accepts connections and reads, but never writes a byte (no TLS, no HTTP).
    public static func start(
        host: String = "127.0.0.1", tls: TLSConfiguration? = nil, silent: Bool = false,
        reply: @escaping @Sendable (ReceivedRequest) -> Reply = { _ in .text(200, "ok") }
    ) async throws -> TestServer {
        let context = try tls.map { try NIOSSLContext(configuration: $0) }
        let state = TestServerState(reply: reply)
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                state.accepted(channel)
                return channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    if silent {
                        try sync.addHandler(ByteCounter(state: state))
                        return
                    }
                    if let context {
                        try sync.addHandler(NIOSSLServerHandler(context: context))
                    }
                    try sync.addHandler(ByteCounter(state: state))
                    // Without pipelining assistance the server keeps reading while a response is pending,
                    // so it notices a client closing a connection it never answers.
                    try sync.configureHTTPServerPipeline(withPipeliningAssistance: false, withErrorHandling: true)
                    try sync.addHandler(RequestHandler(state: state))
                }
            }
            .bind(host: host, port: 0).get()
        return TestServer(state: state, listener: listener)
    }

    /// `http://127.0.0.1:<port>`.
    public var url: String { "http://127.0.0.1:\(port)" }
    /// `https://127.0.0.1:<port>`.
    public var httpsURL: String { "https://127.0.0.1:\(port)" }

    /// Every request received so far, in order.
    public var requests: [ReceivedRequest] { state.requests }
    /// The number of (decrypted) bytes received on all connections.
    public var bytesReceived: Int { state.bytesReceived }
    /// The number of connections accepted.
    public var connectionCount: Int { state.connectionCount }

    /// Waits (at most `limit`) until the server has received `count` requests.
    public func waitForRequests(_ count: Int = 1, limit: Duration = .seconds(3)) async throws {
        let deadline = ContinuousClock.now + limit
        while state.requests.count < count {
            guard ContinuousClock.now < deadline else { throw WaitTimedOut() }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits (at most `limit`) until every accepted connection is closed.
    public func waitForConnectionsClosed(limit: Duration = .seconds(3)) async throws {
        let deadline = ContinuousClock.now + limit
        while state.openChannels.contains(where: \.isActive) {
            guard ContinuousClock.now < deadline else { throw WaitTimedOut() }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Stops listening and closes every connection.
    public func stop() async {
        try? await listener.close()
        for channel in state.openChannels { try? await channel.close() }
    }

    public struct WaitTimedOut: Error {}

    /// Whether a socket can listen on the IPv6 loopback address here.
    public static let ipv6LoopbackAvailable: Bool = {
        guard
            let server = try? ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "::1", port: 0)
                .wait()
        else { return false }
        try? server.close().wait()
        return true
    }()
}

/// Runs `body` with a started server, and stops the server afterwards, whatever happens.
public func withServer<T>(
    host: String = "127.0.0.1", tls: TLSConfiguration? = nil, silent: Bool = false,
    reply: @escaping @Sendable (ReceivedRequest) -> Reply = { _ in .text(200, "ok") },
    _ body: (TestServer) async throws -> T
) async throws -> T {
    try await withStopping(try await TestServer.start(host: host, tls: tls, silent: silent, reply: reply), stop: { await $0.stop() }, body)
}

/// Runs `body` with `server`, then stops it, whether `body` returns or throws.
public func withStopping<Server, T>(
    _ server: Server, stop: (Server) async -> Void, _ body: (Server) async throws -> T
) async throws -> T {
    do {
        let result = try await body(server)
        await stop(server)
        return result
    } catch {
        await stop(server)
        throw error
    }
}

/// A port nothing listens on: one a server just gave back.
public func closedPort() async throws -> Int {
    let server = try await TestServer.start()
    let port = server.port
    await server.stop()
    return port
}

private final class TestServerState: Sendable {
    private struct Fields {
        var requests: [ReceivedRequest] = []
        var channels: [any Channel] = []
        var bytes = 0
    }

    let reply: @Sendable (ReceivedRequest) -> Reply
    private let fields = Mutex(Fields())

    init(reply: @escaping @Sendable (ReceivedRequest) -> Reply) { self.reply = reply }

    func accepted(_ channel: any Channel) { fields.withLock { $0.channels.append(channel) } }
    func received(_ request: ReceivedRequest) { fields.withLock { $0.requests.append(request) } }
    func read(_ count: Int) { fields.withLock { $0.bytes += count } }

    var requests: [ReceivedRequest] { fields.withLock { $0.requests } }
    var bytesReceived: Int { fields.withLock { $0.bytes } }
    var connectionCount: Int { fields.withLock { $0.channels.count } }
    var openChannels: [any Channel] { fields.withLock { $0.channels } }
}

/// Counts the bytes arriving (after TLS decryption, before HTTP parsing).
private final class ByteCounter: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    private let state: TestServerState

    init(state: TestServerState) { self.state = state }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        state.read(unwrapInboundIn(data).readableBytes)
        context.fireChannelRead(data)
    }
}

private final class RequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let state: TestServerState
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(state: TestServerState) { self.state = state }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
        case .body(var buffer):
            body += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
            guard let head else { return }
            let tls = try? context.pipeline.syncOperations.handler(type: NIOSSLServerHandler.self)
            let request = ReceivedRequest(
                method: head.method.rawValue, uri: head.uri, headers: head.headers, body: body,
                clientCertificateSubject: tls?.peerCertificate.map { String(describing: $0) })
            state.received(request)
            respond(state.reply(request), context: context)
        }
    }

    private func respond(_ reply: Reply, context: ChannelHandlerContext) {
        switch reply {
        case .respond(let status, let fields, let body):
            var headers = HTTPHeaders(fields)
            if !headers.contains(name: "Content-Length"), !headers.contains(name: "Transfer-Encoding") {
                headers.add(name: "Content-Length", value: String(body.count))
            }
            context.write(
                wrapOutboundOut(
                    .head(HTTPResponseHead(version: .http1_1, status: .init(statusCode: status), headers: headers))),
                promise: nil)
            if !body.isEmpty {
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
            }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        case .hang:
            break
        case .closeMidBody(let declaredLength, let sent), .stallMidBody(let declaredLength, let sent):
            let headers = HTTPHeaders([("Content-Length", String(declaredLength))])
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil
            )
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: sent)))), promise: nil)
            if case .closeMidBody = reply { context.close(promise: nil) }
        }
    }
}
