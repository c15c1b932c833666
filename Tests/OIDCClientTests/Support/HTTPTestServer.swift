import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A request as the in-process server received it.
struct ServerRequest: Sendable {
    var method: String
    var path: String
    var query: [String: String]
    var headers: HTTPHeaders
    var body: [UInt8]

    /// The body as form parameters (first value of each name).
    var form: [String: String] {
        var values: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            if values[parts[0]] == nil { values[parts[0]] = parts.count > 1 ? parts[1] : "" }
        }
        return values
    }
}

/// A response for the in-process server to send.
struct ServerResponse: Sendable {
    var status: Int
    var headers: [(String, String)] = []
    var body: [UInt8] = []

    static func json(_ status: Int, _ text: String) -> ServerResponse {
        ServerResponse(status: status, headers: [("Content-Type", "application/json")], body: Array(text.utf8))
    }

    static func redirect(_ location: String) -> ServerResponse {
        ServerResponse(status: 302, headers: [("Location", location)])
    }
}

/// A plain HTTP/1.1 server on 127.0.0.1 (a free port) whose answers come from a closure.
final class HTTPTestServer: Sendable {
    let port: Int
    private let channel: any Channel

    private init(port: Int, channel: any Channel) {
        self.port = port
        self.channel = channel
    }

    static func start(_ handle: @escaping @Sendable (ServerRequest) -> ServerResponse) async throws -> HTTPTestServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(ClosureHandler(handle: handle))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return HTTPTestServer(port: channel.localAddress!.port!, channel: channel)
    }

    func stop() async { try? await channel.close() }
}

private final class ClosureHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let handle: @Sendable (ServerRequest) -> ServerResponse
    private var request: ServerRequest?

    init(handle: @escaping @Sendable (ServerRequest) -> ServerResponse) { self.handle = handle }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            let parts = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            var query: [String: String] = [:]
            if parts.count > 1 {
                for pair in parts[1].split(separator: "&") {
                    let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                        $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
                    }
                    if query[kv[0]] == nil { query[kv[0]] = kv.count > 1 ? kv[1] : "" }
                }
            }
            request = ServerRequest(method: head.method.rawValue, path: String(parts[0]), query: query, headers: head.headers, body: [])
        case .body(var buffer):
            request?.body += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
            guard let request else { return }
            self.request = nil
            let response = handle(request)
            var headers = HTTPHeaders(response.headers)
            headers.replaceOrAdd(name: "Content-Length", value: String(response.body.count))
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .init(statusCode: response.status), headers: headers))),
                promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: response.body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
