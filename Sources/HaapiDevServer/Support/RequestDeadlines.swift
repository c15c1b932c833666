import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request does not arrive in time (RFC 9110 leaves it to servers;
/// slow clients otherwise hold connections for as long as they like): the first head within
/// ``headerTimeout`` of the connection's start, each next one within ``keepAliveTimeout`` of the
/// previous response, the body within ``bodyTimeout`` of the head. The time the server takes to
/// answer counts for none. A kept-alive connection waits as long as an idle one may: a client
/// that reuses it a few seconds later must not find it closing under its request (HTTP clients
/// keep pooled connections for a minute). Placed after the HTTP decoder, it sees the request's parts.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias OutboundIn = Any

    private let headerTimeout: TimeAmount
    private let keepAliveTimeout: TimeAmount
    private let bodyTimeout: TimeAmount
    private var deadline: Scheduled<Void>?
    /// Whether a request was read in full and its answer has not begun.
    private var answering = false

    init(headerTimeout: TimeAmount, keepAliveTimeout: TimeAmount, bodyTimeout: TimeAmount) {
        self.headerTimeout = headerTimeout
        self.keepAliveTimeout = keepAliveTimeout
        self.bodyTimeout = bodyTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(headerTimeout, context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(headerTimeout, context: context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: arm(bodyTimeout, context: context)
        case .body: break
        case .end:
            // Read in full: from here on the server is answering, which no deadline of this handler limits.
            disarm()
            answering = true
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if answering {
            // The answer has begun: the next request on this connection has the keep-alive time.
            answering = false
            arm(keepAliveTimeout, context: context)
        }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { disarm() }

    private func arm(_ timeout: TimeAmount, context: ChannelHandlerContext) {
        deadline?.cancel()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }
}
