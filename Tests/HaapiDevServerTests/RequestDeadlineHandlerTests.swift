import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

@testable import HaapiDevServer

/// The request deadlines on a clock the test moves: a request must arrive in time, and the
/// server's own time to answer is limited by none of them.
@Suite struct RequestDeadlineHandlerTests {
    let channel: EmbeddedChannel

    init() throws {
        channel = EmbeddedChannel(
            handler: RequestDeadlineHandler(headerTimeout: .seconds(10), keepAliveTimeout: .seconds(60), bodyTimeout: .seconds(30)))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
    }

    var isOpen: Bool { channel.isActive }
    var head: HTTPRequestPart { .head(HTTPRequest(method: .post, scheme: nil, authority: "localhost", path: "/login")) }

    @Test func aHeadThatNeverComesClosesTheConnection() throws {
        channel.embeddedEventLoop.advanceTime(by: .seconds(9))
        #expect(isOpen)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!isOpen)
    }

    @Test func aBodyThatNeverEndsClosesTheConnection() throws {
        channel.embeddedEventLoop.advanceTime(by: .seconds(9))
        try channel.writeInbound(head)
        channel.embeddedEventLoop.advanceTime(by: .seconds(29))
        try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "a=1")))
        #expect(isOpen, "the body has 30 s from its head")
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!isOpen)
    }

    @Test func answeringTakesAsLongAsItTakes() throws {
        try channel.writeInbound(head)
        try channel.writeInbound(HTTPRequestPart.end(nil))
        // The request is in: a slow answer (a loaded machine, a KDF) is not cut.
        channel.embeddedEventLoop.advanceTime(by: .seconds(120))
        #expect(isOpen)
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        // The answer began: the kept-alive connection waits for the next head as long as an idle
        // one may (a client reusing it ten seconds later must not find it closing), and no longer.
        channel.embeddedEventLoop.advanceTime(by: .seconds(59))
        #expect(isOpen)
        try channel.writeInbound(head)
        channel.embeddedEventLoop.advanceTime(by: .seconds(29))
        #expect(isOpen)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!isOpen)
    }

    @Test func aKeptAliveConnectionWithNoNextRequestIsClosedAfterTheIdleTime() throws {
        try channel.writeInbound(head)
        try channel.writeInbound(HTTPRequestPart.end(nil))
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        channel.embeddedEventLoop.advanceTime(by: .seconds(59))
        #expect(isOpen)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!isOpen)
    }
}
