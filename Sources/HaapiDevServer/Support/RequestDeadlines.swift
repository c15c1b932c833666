import NIOCore

/// Closes a connection whose request does not arrive in time (RFC 9110 leaves it to servers;
/// slow clients otherwise hold connections for as long as they like): the head within
/// ``headerTimeout`` of the connection's start or of the previous response, the body within
/// ``bodyTimeout`` of the head. An idle keep-alive connection is closed by Hummingbird's idle
/// timeout. Placed after the HTTP decoder, it sees one message per decoded part and never
/// looks inside them.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = Any
    typealias OutboundIn = Any

    private let headerTimeout: TimeAmount
    private let bodyTimeout: TimeAmount
    private var deadline: Scheduled<Void>?
    private var waitingForHead = true

    init(headerTimeout: TimeAmount, bodyTimeout: TimeAmount) {
        self.headerTimeout = headerTimeout
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
        if waitingForHead {
            // The decoder passes a request on once its head is complete: now the body has its own time.
            waitingForHead = false
            arm(bodyTimeout, context: context)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if !waitingForHead {
            // A response has begun: the request was read. The next one has the header time again.
            waitingForHead = true
            arm(headerTimeout, context: context)
        }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    private func arm(_ timeout: TimeAmount, context: ChannelHandlerContext) {
        deadline?.cancel()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }
}
