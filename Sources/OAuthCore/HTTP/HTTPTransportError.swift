/// A failure below HTTP: no response was received.
public struct HTTPTransportError: CodedError, Hashable {
    /// The kind of failure.
    public let code: Code
    /// What happened, naming the request.
    public let message: String
    /// The lower-level error, described.
    public let underlying: String?
    /// What exactly went wrong, when the transport could tell (a refused certificate's problem:
    /// "the server's certificate is self-signed, and not trusted here").
    public let detail: String?

    /// Makes an error.
    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil, detail: String? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying.map { String(describing: $0) }
        self.detail = detail
    }

    /// The transport's own error, described, when there is one; otherwise the message.
    public var failureReason: String { underlying ?? message }

    /// What went wrong in plain words, without the request: for a message that names the
    /// request itself ("the discovery document … could not be fetched: nothing answers there").
    public var plainReason: String {
        switch code {
        case .connectionFailed: return detail ?? "nothing answers there (the connection was refused, or the host cannot be reached)"
        case .connectionClosed: return "the connection broke before the answer was complete"
        case .timedOut: return "no answer came in time"
        case .cancelled: return "it was cancelled"
        case .tlsFailure:
            return detail.map { "the TLS handshake failed: \($0)" } ?? "the TLS handshake failed (an untrusted or wrong certificate)"
        case .publicKeyPinMismatch: return "the server's key is none of the pinned keys"
        case .responseTooLarge: return "the answer is too large"
        default: return message
        }
    }

    /// A retry now when the connection failed, broke, timed out or was cancelled; a look at the cause for
    /// TLS, pins and size; a configuration change otherwise.
    public var recoverySuggestion: IdsvrErrorHandling {
        switch code {
        case .connectionFailed, .connectionClosed, .timedOut, .cancelled: return .retryable(condition: .now)
        case .tlsFailure, .publicKeyPinMismatch, .responseTooLarge: return .unrecoverable(action: .introspectCause)
        default: return .unrecoverable(action: .modifyConfiguration(reason: message))
        }
    }
}

extension TransportRequest {
    /// What a transport checks before it sends: the URL's scheme (lowercased) and host, and the
    /// request as its errors name it (`GET https://…`, without secrets in the query).
    /// - Throws: ``HTTPTransportError`` `invalidRequest` for a URL that is not absolute http(s),
    ///   `cancelled` when the calling task is cancelled (nothing is sent then).
    package func checkedForSending() throws -> (scheme: String, host: String, target: String) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else {
            throw HTTPTransportError(.invalidRequest, "only absolute http(s) URLs can be requested, not \(url.redacted)")
        }
        let target = "\(method) \(url.redacted)"
        if Task.isCancelled { throw HTTPTransportError.cancelled(target) }
        return (scheme, host, target)
    }
}

extension HTTPTransportError {
    /// The exchange `target` (`GET https://…`) was cancelled by its caller.
    package static func cancelled(_ target: String) -> HTTPTransportError {
        HTTPTransportError(.cancelled, "\(target) was cancelled")
    }

    /// Runs the exchange `target` until `deadline` (``withDeadline(_:timedOut:cancelled:operation:)``):
    /// ``Code/timedOut`` when it passes (`"\(target) \(timeoutPhrase)"`), ``cancelled(_:)`` when
    /// the calling task is cancelled, before or during the exchange.
    package static func racing<Value: Sendable>(
        _ target: String, until deadline: Deadline, timeoutPhrase: String = "timed out",
        operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withDeadline(
            deadline, timedOut: { HTTPTransportError(.timedOut, "\(target) \(timeoutPhrase)") },
            cancelled: { HTTPTransportError.cancelled(target) }, operation: operation)
    }
}

extension ErrorCode where Domain == HTTPTransportError {
    /// The server could not be reached (refused, unreachable, DNS failure).
    public static var connectionFailed: Self { Self("connection_failed") }
    /// The connection broke before the whole response arrived.
    public static var connectionClosed: Self { Self("connection_closed") }
    /// No complete response within the timeout.
    public static var timedOut: Self { Self("timed_out") }
    /// The task was cancelled.
    public static var cancelled: Self { Self("cancelled") }
    /// The TLS handshake failed (untrusted certificate, wrong host name, client certificate refused).
    public static var tlsFailure: Self { Self("tls_failure") }
    /// The server's public key matches none of the pinned keys for its host.
    public static var publicKeyPinMismatch: Self { Self("public_key_pin_mismatch") }
    /// The request cannot be sent (unsupported URL scheme, no host, bad TLS material).
    public static var invalidRequest: Self { Self("invalid_request") }
    /// The response body is larger than the transport accepts.
    public static var responseTooLarge: Self { Self("response_too_large") }
    /// The transport cannot do what its configuration asks on this platform (FoundationNetworking's
    /// URLSession has no client certificates, pinning or custom trust): it refuses rather than
    /// connect with less protection than configured.
    public static var unsupportedConfiguration: Self { Self("unsupported_configuration") }
}
