import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import OAuthCore

/// An ``/OAuthCore/HTTPTransport`` on AsyncHTTPClient, for servers, terminals and desktop apps on Linux
/// and macOS: connection pooling, mutual TLS, custom trust roots and pinning everywhere
/// (`URLSessionTransport` is the default of apps on Apple platforms).
///
/// Redirects are never followed. Requests to a host with ``/OAuthCore/KeyPinning``s go through a
/// one-connection client that checks the server key during the TLS handshake, because
/// AsyncHTTPClient has no hook for that check.
public struct AsyncHTTPClientTransport: HTTPTransport {
    /// Settings of the transport.
    public typealias Configuration = TransportConfiguration

    /// One client for the whole process: it lives as long as the process, so it never needs
    /// an explicit shutdown. TLS settings are applied per request.
    private static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.decompression = .disabled
        // Without this, a refused connection or a TLS trust failure surfaces only after the connect timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(10)
        return HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }()

    /// The configuration.
    public let configuration: Configuration
    private let tlsConfiguration: TLSConfiguration

    /// Makes a transport.
    /// - Throws: ``/OAuthCore/HTTPTransportError`` with [`HTTPTransportError.Code.invalidRequest`](doc:/OAuthCore/ErrorCode/invalidRequest) when the TLS material is unusable.
    public init(configuration: Configuration = Configuration()) throws {
        self.configuration = configuration
        self.tlsConfiguration = try configuration.tls.makeNIOConfiguration()
    }

    /// Sends `request` over AsyncHTTPClient, or over a connection of its own when the host's certificates are
    /// pinned; the body is read up to ``/OAuthCore/TransportConfiguration/maximumResponseBytes`` within the request's
    /// timeout.
    /// - Throws: ``/OAuthCore/HTTPTransportError`` for a URL that is not absolute http(s), a timeout, a body too large,
    ///   or a failure below HTTP.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let (scheme, host, target) = try request.checkedForSending()
        let timeout = request.timeout ?? configuration.timeout
        let pins = configuration.tls.pins(for: host)
        if scheme == "https", !pins.isEmpty {
            return try await PinnedConnection(
                request: request, tls: tlsConfiguration, pins: pins, timeout: timeout,
                maximumResponseBytes: configuration.maximumResponseBytes
            ).send()
        }
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for field in request.headers { outgoing.headers.add(name: field.name, value: field.value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        if scheme == "https" { outgoing.tlsConfiguration = tlsConfiguration }
        let deadline = Deadline(secondsFromNow: timeout)
        let limit = configuration.maximumResponseBytes
        do {
            let response = try await Self.client.execute(outgoing, timeout: TimeAmount(seconds: timeout))
            // AsyncHTTPClient's deadline ends when the head arrives: the body needs its own.
            let body = try await HTTPTransportError.racing(target, until: deadline, timeoutPhrase: "timed out while receiving the body") {
                try await response.body.collect(upTo: limit)
            }
            var headers = HeaderFields()
            for field in response.headers { headers.add(name: field.name, value: field.value) }
            return TransportResponse(
                status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView), url: request.url,
                statusLine: HTTPStatusLine.text(version: response.version, status: response.status))
        } catch {
            // Whatever the layers below made of a cancellation (a closed channel, a finished body), it is one.
            if Task.isCancelled { throw HTTPTransportError.cancelled(target) }
            let failure = HTTPTransportError.classify(error, target: target)
            // "Certificate verify failed" says nothing a person can fix: say what is wrong with it.
            if failure.code == .tlsFailure, scheme == "https",
                let problem = await CertificateDiagnosis.diagnose(
                    host: host, port: request.url.port ?? 443, validatesHostname: configuration.tls.validatesHostname, timeout: timeout)
            {
                throw HTTPTransportError(
                    .tlsFailure, "the TLS handshake for \(target) failed: \(problem)", underlying: error, detail: problem)
            }
            throw failure
        }
    }
}

extension TimeAmount {
    /// `seconds` (a request's timeout), clamped as every wait of the package is (``WaitTime``).
    init(seconds: TimeInterval) {
        self = .nanoseconds(Int64(WaitTime.nanoseconds(seconds)))  // at most a year: far inside Int64
    }
}

extension HTTPTransportError {
    /// Maps the many error types of AsyncHTTPClient, NIO and NIOSSL to one typed error.
    static func classify(_ error: any Error, target: String) -> HTTPTransportError {
        if let error = error as? HTTPTransportError { return error }
        if error is CancellationError { return .cancelled(target) }
        if error is NIOTooManyBytesError {
            return HTTPTransportError(.responseTooLarge, "the response to \(target) is too large", underlying: error)
        }
        if let error = error as? HTTPClientError {
            switch error {
            case .cancelled: return .cancelled(target)
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout:
                return HTTPTransportError(.timedOut, "\(target) timed out", underlying: error)
            case .remoteConnectionClosed:
                return HTTPTransportError(.connectionClosed, "the server closed the connection during \(target)", underlying: error)
            default: break
            }
        }
        if error is NIOSSLError || error is BoringSSLError || error is NIOSSLExtraError {
            return HTTPTransportError(.tlsFailure, "the TLS handshake for \(target) failed", underlying: error)
        }
        if let error = error as? ChannelError, case .connectTimeout = error {
            return HTTPTransportError(.timedOut, "connecting for \(target) timed out", underlying: error)
        }
        let text = String(describing: error)
        if text.contains("handshake") || text.contains("certificate") || text.contains("SSL") {
            return HTTPTransportError(.tlsFailure, "the TLS handshake for \(target) failed", underlying: error)
        }
        if let error = error as? NIOConnectionError, error.connectionErrors.isEmpty, (error.dnsAError ?? error.dnsAAAAError) != nil {
            // No address to connect to: a mistyped or unknown host, not a refusal.
            return HTTPTransportError(
                .connectionFailed, "\(target) could not connect: the host \(error.host) is unknown (no DNS address)", underlying: error,
                detail: "the host \(error.host) is unknown (no DNS address)")
        }
        if error is NIOConnectionError || error is IOError || text.contains("connect") {
            return HTTPTransportError(.connectionFailed, "\(target) could not connect", underlying: error)
        }
        return HTTPTransportError(.connectionClosed, "\(target) failed", underlying: error)
    }
}

/// A response's status line as curl prints it: HTTP/1 with its reason phrase
/// (`HTTP/1.1 404 Not Found`), HTTP/2 and later without one, which they do not send (`HTTP/2 404`).
enum HTTPStatusLine {
    static func text(version: HTTPVersion, status: HTTPResponseStatus) -> String {
        guard version.major < 2 else { return "HTTP/\(version.major) \(status.code)" }
        let line = "HTTP/\(version.major).\(version.minor) \(status.code)"
        return status.reasonPhrase.isEmpty ? line : line + " " + status.reasonPhrase
    }
}
