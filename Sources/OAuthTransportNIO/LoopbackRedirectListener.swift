import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import OAuthCore

/// An HTTP listener on `127.0.0.1` that lives for one redirect (RFC 8252 §7.3): it answers
/// the first request to its path with a "you can close this window" page, hands that
/// request's URL over, and is then closed.
///
/// The address is bound with `SO_REUSEADDR`, so a fixed port (for providers that match the
/// redirect URI's port exactly) can be bound again at once by the next login, even while
/// connections of the previous one linger in `TIME_WAIT`.
public final class LoopbackRedirectListener: RedirectListener {
    /// The port listened on (the actual one when port 0 was asked for).
    public let port: Int
    /// The path the redirect must come to (others get 404).
    public let path: String
    private let channel: any Channel
    private let received: AsyncStream<URL>
    private let continuation: AsyncStream<URL>.Continuation

    private init(
        port: Int, path: String, channel: any Channel, received: AsyncStream<URL>, continuation: AsyncStream<URL>.Continuation
    ) {
        self.port = port
        self.path = path
        self.channel = channel
        self.received = received
        self.continuation = continuation
    }

    /// The page the browser shows when it comes back, made from the return's query parameters.
    public typealias ReturnPage = @Sendable (_ parameters: [(String, String)]) -> String

    /// The factory a loopback user agent starts listeners with.
    public static let factory: RedirectListenerFactory = { port, path in try await start(port: port, path: path) }

    /// A factory whose listeners show `page` on the browser's return (an app's own, in its look and language).
    public static func factory(page: @escaping ReturnPage) -> RedirectListenerFactory {
        { port, path in try await start(port: port, path: path, page: page) }
    }

    /// Starts listening on `127.0.0.1:port` (`0`: any free port) for requests to `path`; the
    /// browser's return gets `page` (default: a plain English page, ``defaultPage(_:)``).
    /// - Throws: ``/OAuthCore/HTTPTransportError`` [`HTTPTransportError.Code.connectionFailed`](doc:/OAuthCore/ErrorCode/connectionFailed) when the port cannot be bound.
    public static func start(port: Int, path: String, page: @escaping ReturnPage = defaultPage) async throws -> LoopbackRedirectListener {
        let path = path.isEmpty ? "/" : path
        let (stream, continuation) = AsyncStream<URL>.makeStream(bufferingPolicy: .bufferingOldest(1))
        let delivered = LockedValue(false)
        let deliver: @Sendable (URL) -> Void = { url in
            // Only the first redirect counts; a reload of the page must not replace it.
            let first = delivered.withLock { done in
                defer { done = true }
                return !done
            }
            if first {
                continuation.yield(url)
                continuation.finish()
            }
        }
        do {
            let channel = try await bind(port: port, path: path, page: page, deliver: deliver)
            guard let bound = channel.localAddress?.port else {
                try? await channel.close()
                throw HTTPTransportError(.connectionFailed, "the loopback listener has no port")
            }
            return LoopbackRedirectListener(port: bound, path: path, channel: channel, received: stream, continuation: continuation)
        } catch let error as HTTPTransportError {
            throw error
        } catch {
            throw HTTPTransportError(
                .connectionFailed, "cannot listen on 127.0.0.1:\(port) for the browser's redirect (is another login running?)",
                underlying: error)
        }
    }

    /// Binds the listening socket. A fixed port still held by a login that is just ending (its
    /// listener's close under way, in this process or one that is exiting) is tried again for
    /// a second before giving up.
    private static func bind(port: Int, path: String, page: @escaping ReturnPage, deliver: @escaping @Sendable (URL) -> Void) async throws
        -> any Channel
    {
        var attempts = 0
        while true {
            do {
                return try await bootstrap(path: path, page: page, deliver: deliver).bind(host: "127.0.0.1", port: port).get()
            } catch let error as IOError where error.errnoCode == EADDRINUSE && port != 0 && attempts < 20 {
                attempts += 1
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    private static func bootstrap(path: String, page: @escaping ReturnPage, deliver: @escaping @Sendable (URL) -> Void) -> ServerBootstrap {
        ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(.backlog, value: 16)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(RedirectHandler(path: path, page: page, deliver: deliver))
                }
            }
    }

    /// Waits for the redirect.
    /// - Returns: the redirect URL, or `nil` when the listener was closed first.
    public func redirect() async -> URL? {
        var iterator = received.makeAsyncIterator()
        return await iterator.next()
    }

    /// Stops listening. Safe to call more than once.
    public func close() async {
        continuation.finish()
        try? await channel.close()
    }
}

extension LoopbackRedirectListener {
    /// What a browser's return says, by what it carries: a code or a `_resume_nonce` (the
    /// sign-in goes on), an error (it did not finish), or neither (the end of a sign-out).
    public enum Return: Sendable {
        /// The sign-in goes on (a code or a `_resume_nonce`), it failed (an `error`), or a sign-out ended (neither).
        case signedIn, failed, signedOut

        /// The return carrying `parameters`.
        public init(_ parameters: [(String, String)]) {
            let names = Set(parameters.map(\.0))
            if names.contains("code") || names.contains("_resume_nonce") {
                self = .signedIn
            } else if names.contains("error") {
                self = .failed
            } else {
                self = .signedOut
            }
        }
    }

    /// The page the browser shows on its return (``Return``), in plain English.
    public static func defaultPage(_ parameters: [(String, String)]) -> String {
        let (title, text): (String, String)
        switch Return(parameters) {
        case .signedIn: (title, text) = ("Signed in", "You are signed in. You can close this window and return to the app.")
        case .failed: (title, text) = ("Sign-in not completed", "The sign-in did not complete. Return to the app to see why.")
        case .signedOut: (title, text) = ("Signed out", "You are signed out. You can close this window and return to the app.")
        }
        let page: Markup =
            "<!doctype html><meta charset=utf-8><meta name=viewport content=\"width=device-width, initial-scale=1\"><title>\(text: title)</title><p>\(text: text)"
        return page.description
    }
}

/// Answers the redirect request and reports its URL; anything else (a favicon) gets 404.
private final class RedirectHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let path: String
    private let page: LoopbackRedirectListener.ReturnPage
    private let deliver: @Sendable (URL) -> Void
    private var head: HTTPRequestHead?

    private static let notFound: Markup = "<!doctype html><meta charset=utf-8><title>Not found</title><p>Not found."

    init(path: String, page: @escaping LoopbackRedirectListener.ReturnPage, deliver: @escaping @Sendable (URL) -> Void) {
        self.path = path
        self.page = page
        self.deliver = deliver
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break
        case .end:
            guard let head else { return }
            self.head = nil
            let target = head.uri
            let requestPath = String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
            let local = context.channel.localAddress?.port ?? 0
            let matches = head.method == .GET && requestPath == path
            let page =
                matches
                ? self.page(FormURLEncoding.decode(target.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? ""))
                : Self.notFound.description
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "text/html; charset=utf-8")
            headers.add(name: "Content-Length", value: String(page.utf8.count))
            headers.add(name: "Connection", value: "close")
            headers.add(name: "Cache-Control", value: "no-store")
            // No referrer may carry the code onward from this page.
            headers.add(name: "Referrer-Policy", value: "no-referrer")
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: matches ? .ok : .notFound, headers: headers))),
                promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: page)))), promise: nil)
            // Closing only once the page is written; this side closing first is what leaves the
            // port's sockets in TIME_WAIT, which SO_REUSEADDR on the listener makes harmless.
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
            if matches, let url = URL(string: "http://127.0.0.1:\(local)\(target)") {
                deliver(url)
            }
        }
    }
}
