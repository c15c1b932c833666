import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import OAuthCore

/// One HTTPS exchange on its own connection, trusting the server by a pinned public key.
///
/// The pin is checked against the leaf certificate inside the TLS handshake, before any
/// byte of the request is sent, so a connection to an impostor never carries a secret.
/// The pin replaces the certificate chain check (the chain is not checked): that is what
/// pinning a development server's self-signed key needs, and the handshake itself proves that
/// the server holds the pinned key. The leaf certificate must still be within its validity
/// period (a pinned key does not make an expired certificate good), and the host name is still
/// checked against it unless ``/OAuthCore/TLSOptions/validatesHostname`` is off (IP literals have no SNI).
struct PinnedConnection {
    let request: TransportRequest
    let tls: TLSConfiguration
    let pins: Set<String>
    let timeout: TimeInterval
    let maximumResponseBytes: Int

    func send() async throws -> TransportResponse {
        let url = request.url
        let target = "\(request.method) \(url.redacted)"
        guard let host = url.host else { throw HTTPTransportError(.invalidRequest, "no host in \(url.redacted)") }
        let port = url.port ?? 443
        let context: NIOSSLContext
        do { context = try NIOSSLContext(configuration: tls) } catch {
            throw HTTPTransportError(.invalidRequest, "the TLS configuration is unusable", underlying: error)
        }
        let group = MultiThreadedEventLoopGroup.singleton
        let outcome = Outcome(promise: group.next().makePromise(of: TransportResponse.self))
        let pinMismatch = LockedValue<String?>(nil)
        let outOfDate = LockedValue(false)
        let pins = self.pins
        let limit = maximumResponseBytes

        let deadline = NIODeadline.now() + TimeAmount(seconds: timeout)
        let bootstrap = ClientBootstrap.tls(
            to: host, context: context, group: group, timeout: timeout,
            verify: { certificates, verification in
                let hash = certificates.first.flatMap { try? $0.extractPublicKey().toSPKIBytes() }
                    .map { Data(SHA256.hash(data: $0)).base64EncodedString() }
                let now = time(nil)
                if let leaf = certificates.first, now < leaf.notValidBefore || now > leaf.notValidAfter {
                    outOfDate.withLock { $0 = true }
                    verification.succeed(.failed)
                } else if let hash, pins.contains(hash) {
                    verification.succeed(.certificateVerified)
                } else {
                    pinMismatch.withLock { $0 = hash ?? "no certificate" }
                    verification.succeed(.failed)
                }
            },
            handlers: { pipeline in
                try pipeline.addHTTPClientHandlers()
                try pipeline.addHandler(ResponseCollector(outcome: outcome, url: url, limit: limit))
            })

        return try await withTaskCancellationHandler {
            let channel: Channel
            do {
                channel = try await bootstrap.connect(host: host, port: port).get()
            } catch {
                outcome.fail(error)  // no channel will ever complete the promise; NIO traps on leaked promises
                throw HTTPTransportError.classify(error, target: target)
            }
            // One deadline for the whole exchange: the connect step has already used part of it.
            let timer = channel.eventLoop.scheduleTask(deadline: deadline) {
                outcome.fail(HTTPTransportError(.timedOut, "\(target) timed out"))
                channel.close(promise: nil)
            }
            defer { timer.cancel() }
            var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: request.method), uri: url.requestTarget)
            let hostField = host.contains(":") ? "[\(host)]" : host  // IPv6 literals keep their brackets (RFC 9110 §7.2)
            head.headers.add(name: "Host", value: url.port.map { "\(hostField):\($0)" } ?? hostField)
            head.headers.add(name: "Connection", value: "close")
            // Host, Connection and Content-Length are this client's to set.
            for field in request.headers where !["host", "connection", "content-length"].contains(field.name.lowercased()) {
                head.headers.add(name: field.name, value: field.value)
            }
            let body = request.body ?? Data()
            if !body.isEmpty || ["POST", "PUT", "PATCH"].contains(request.method) {
                head.headers.replaceOrAdd(name: "Content-Length", value: String(body.count))
            }
            channel.write(HTTPClientRequestPart.head(head), promise: nil)
            if !body.isEmpty { channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil) }
            channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
            do {
                return try await outcome.promise.futureResult.get()
            } catch {
                channel.close(promise: nil)
                if outOfDate.withLock({ $0 }) {
                    throw HTTPTransportError(
                        .tlsFailure,
                        "\(target): the server's certificate is expired or not yet valid (its key is pinned, its dates still count)")
                }
                if let presented = pinMismatch.withLock({ $0 }) {
                    throw HTTPTransportError(
                        .publicKeyPinMismatch,
                        "the server key of \(host) (sha256/\(presented)) matches none of its \(pins.count) pins")
                }
                throw HTTPTransportError.classify(error, target: target)
            }
        } onCancel: {
            outcome.fail(CancellationError())
        }
    }
}

/// Completes a promise once; later completions (a timeout racing the response) are ignored.
final class Outcome: Sendable {
    let promise: EventLoopPromise<TransportResponse>
    private let done = LockedValue(false)

    init(promise: EventLoopPromise<TransportResponse>) { self.promise = promise }

    func succeed(_ response: TransportResponse) {
        if claim() { promise.succeed(response) }
    }

    func fail(_ error: any Error) {
        if claim() { promise.fail(error) }
    }

    private func claim() -> Bool {
        done.withLock { done in
            defer { done = true }
            return !done
        }
    }
}

/// Gathers one HTTP/1.1 response and completes the outcome with it.
private final class ResponseCollector: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let outcome: Outcome
    private let url: URL
    private let limit: Int
    private var head: HTTPResponseHead?
    private var body = Data()

    init(outcome: Outcome, url: URL, limit: Int) {
        self.outcome = outcome
        self.url = url
        self.limit = limit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body(var buffer):
            guard body.count + buffer.readableBytes <= limit else {
                outcome.fail(HTTPTransportError(.responseTooLarge, "the response from \(url.redacted) exceeds \(limit) bytes"))
                context.close(promise: nil)
                return
            }
            body.append(contentsOf: buffer.readBytes(length: buffer.readableBytes) ?? [])
        case .end:
            guard let head else { return }
            var headers = HeaderFields()
            for field in head.headers { headers.add(name: field.name, value: field.value) }
            outcome.succeed(
                TransportResponse(
                    status: Int(head.status.code), headers: headers, body: body, url: url,
                    statusLine: HTTPStatusLine.text(version: head.version, status: head.status)))
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        outcome.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        outcome.fail(HTTPTransportError(.connectionClosed, "the connection to \(url.redacted) closed before the response ended"))
        context.fireChannelInactive()
    }
}

extension URL {
    /// The request target of an origin-form request: path and query.
    var requestTarget: String {
        let components = URLComponents(url: self, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath ?? "/"
        let query = components?.percentEncodedQuery.map { "?" + $0 } ?? ""
        return (path.isEmpty ? "/" : path) + query
    }
}

extension String {
    /// Whether this is an IPv4 or IPv6 literal (TLS sends no SNI for those).
    var isIPAddress: Bool {
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        return inet_pton(AF_INET, self, &ipv4) == 1 || inet_pton(AF_INET6, self, &ipv6) == 1
    }
}
