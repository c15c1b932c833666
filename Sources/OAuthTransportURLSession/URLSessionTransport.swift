import Foundation
import OAuthCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The ``/OAuthCore/HTTPTransport`` of apps: URLSession, the platform's own HTTP stack (Apple's TLS,
/// proxies, cellular and VPN settings), with nothing else linked in.
///
/// - Redirects are never followed (a session delegate refuses them): the 3xx is the response.
/// - A request takes at most its ``/OAuthCore/TransportRequest/timeout`` (or the configuration's), body
///   included; cancelling the calling task cancels the request.
/// - A body larger than ``/OAuthCore/TransportConfiguration/maximumResponseBytes`` stops the download.
/// - On Apple platforms, mutual TLS (a PKCS#12 identity), custom trust roots, host-name
///   checking and public-key pinning are applied in the session delegate (`URLSessionTransport+Security.swift`).
///   FoundationNetworking (Linux) can do none of these: a configuration that asks for them is
///   refused with [`HTTPTransportError.Code.unsupportedConfiguration`](doc:/OAuthCore/ErrorCode/unsupportedConfiguration), never silently dropped;
///   `OAuthTransportNIO`'s `AsyncHTTPClientTransport` does them there.
public final class URLSessionTransport: HTTPTransport {
    /// Settings of the transport.
    public typealias Configuration = TransportConfiguration

    /// The configuration.
    public let configuration: Configuration
    private let session: URLSession
    private let delegate: SessionDelegate

    /// Makes a transport with a session of its own.
    /// - Throws: ``/OAuthCore/HTTPTransportError`` with [`HTTPTransportError.Code.unsupportedConfiguration`](doc:/OAuthCore/ErrorCode/unsupportedConfiguration)
    ///   for TLS settings this platform's URLSession cannot apply, or
    ///   [`HTTPTransportError.Code.invalidRequest`](doc:/OAuthCore/ErrorCode/invalidRequest) for TLS material that cannot be read (a PKCS#12
    ///   bundle with another passphrase).
    ///
    /// - Parameters:
    ///   - configuration: the transport's settings: timeout, largest body read, TLS (mutual TLS,
    ///     trust roots, pinning).
    ///   - sessionConfiguration: the app's settings for the session (proxies, extra
    ///     headers, cellular access, protocol classes); a copy is used, made `URLSessionConfiguration.haapi`-safe
    ///     (no cache, cookies or credential storage) with the configuration's timeout. Default: `URLSessionConfiguration.haapi`.
    public init(configuration: Configuration = Configuration(), sessionConfiguration: URLSessionConfiguration = .haapi) throws {
        self.configuration = configuration
        delegate = SessionDelegate(trust: try ServerTrust(configuration.tls))
        let settings = (sessionConfiguration.copy() as? URLSessionConfiguration) ?? .haapi
        settings.makeHaapiSafe()
        settings.timeoutIntervalForRequest = WaitTime.clamped(configuration.timeout)
        session = URLSession(configuration: settings, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        // The session keeps its delegate until it is invalidated.
        session.invalidateAndCancel()
    }

    /// Sends `request` in the transport's `URLSession`; the body is read up to
    /// ``/OAuthCore/TransportConfiguration/maximumResponseBytes`` within the request's timeout.
    /// - Throws: ``/OAuthCore/HTTPTransportError`` for a URL that is not absolute http(s), a cancellation, a timeout, a
    ///   body too large, or a failure below HTTP.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let target = try request.checkedForSending().target
        let timeout = request.timeout ?? configuration.timeout
        var urlRequest = URLRequest(
            url: request.url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData, timeoutInterval: WaitTime.clamped(timeout))
        urlRequest.httpMethod = request.method
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        urlRequest.httpBody = request.body
        let task = TaskBox(session.dataTask(with: urlRequest))
        let delegate = self.delegate
        let limit = configuration.maximumResponseBytes
        let deadline = Deadline(secondsFromNow: timeout)
        let (data, response) = try await HTTPTransportError.racing(target, until: deadline) {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>) in
                    delegate.start(task.task, limit: limit, target: target, continuation: continuation)
                }
            } onCancel: {
                task.task.cancel()
            }
        }
        var headers = HeaderFields()
        for (name, value) in response.allHeaderFields {
            guard let name = name as? String else { continue }
            headers.add(name: name, value: "\(value)")
        }
        return TransportResponse(status: response.statusCode, headers: headers, body: data, url: request.url)
    }
}

/// A data task handed between the calling task and its cancellation handler.
private final class TaskBox: @unchecked Sendable {
    // Set once; URLSessionTask's own methods are thread-safe.
    let task: URLSessionDataTask
    init(_ task: URLSessionDataTask) { self.task = task }
}

/// The session's delegate: it refuses redirects, checks the server and presents the client
/// certificate (through ``ServerTrust``), collects each task's body up to its limit, and
/// resumes the task's caller when the task completes.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct Exchange {
        var continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>?
        var data = Data()
        var response: HTTPURLResponse?
        var limit = Int.max
        var target = ""
        /// Why the task was cancelled by this delegate, when it was.
        var failure: HTTPTransportError?
        /// The 401 whose challenge was refused by cancelling the task (FoundationNetworking).
        var challengedResponse: HTTPURLResponse?
        /// The outcome, when the task ended before its caller registered.
        var outcome: Result<(Data, HTTPURLResponse), any Error>?
    }

    let trust: ServerTrust
    // Every access to `exchanges` holds its lock; delegate callbacks come on the session's queue.
    private let exchanges = LockedValue<[Int: Exchange]>([:])

    init(trust: ServerTrust) { self.trust = trust }

    /// Registers the caller of `task` and starts it.
    func start(
        _ task: URLSessionDataTask, limit: Int, target: String, continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>
    ) {
        let finished = exchanges.withLock { exchanges -> Result<(Data, HTTPURLResponse), any Error>? in
            var exchange = exchanges[task.taskIdentifier] ?? Exchange()
            if let outcome = exchange.outcome {
                exchanges[task.taskIdentifier] = nil
                return outcome
            }
            exchange.continuation = continuation
            exchange.limit = limit
            exchange.target = target
            exchanges[task.taskIdentifier] = exchange
            return nil
        }
        if let finished {
            continuation.resume(with: finished)
        } else {
            task.resume()
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)  // the 3xx is the response: the protocols read its Location themselves
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let answer = trust.answer(challenge)
        exchanges.withLock { exchanges in
            if let failure = answer.failure { exchanges[task.taskIdentifier, default: Exchange()].failure = failure }
            if answer.disposition == .cancelAuthenticationChallenge, let response = challenge.failureResponse as? HTTPURLResponse {
                exchanges[task.taskIdentifier, default: Exchange()].challengedResponse = response
            }
        }
        completionHandler(answer.disposition, answer.credential)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let allowed = exchanges.withLock { exchanges -> Bool in
            var exchange = exchanges[dataTask.taskIdentifier, default: Exchange()]
            exchange.response = response as? HTTPURLResponse
            if response.expectedContentLength > Int64(exchange.limit) {
                exchange.failure = HTTPTransportError(.responseTooLarge, "the response to \(exchange.target) is too large")
            }
            exchanges[dataTask.taskIdentifier] = exchange
            return exchange.failure == nil
        }
        completionHandler(allowed ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let tooLarge = exchanges.withLock { exchanges -> Bool in
            var exchange = exchanges[dataTask.taskIdentifier, default: Exchange()]
            exchange.data.append(data)
            if exchange.data.count > exchange.limit {
                exchange.failure = HTTPTransportError(.responseTooLarge, "the response to \(exchange.target) is too large")
                exchange.data = Data()
            }
            exchanges[dataTask.taskIdentifier] = exchange
            return exchange.failure != nil
        }
        if tooLarge { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, outcome) = exchanges.withLock {
            exchanges -> (CheckedContinuation<(Data, HTTPURLResponse), any Error>?, Result<(Data, HTTPURLResponse), any Error>) in
            var exchange = exchanges[task.taskIdentifier, default: Exchange()]
            let target = exchange.target.isEmpty ? "the request" : exchange.target
            let outcome: Result<(Data, HTTPURLResponse), any Error>
            if let failure = exchange.failure {
                outcome = .failure(failure)
            } else if let challenged = exchange.challengedResponse {
                outcome = .success((exchange.data, challenged))
            } else if let error {
                var failure = HTTPTransportError.classify(urlError: error, target: target)
                if failure.code == .connectionFailed, exchange.response != nil {
                    // The answer had begun (FoundationNetworking reports a cut body as an unknown error).
                    failure = HTTPTransportError(.connectionClosed, "the connection broke during \(target)", underlying: error)
                }
                outcome = .failure(failure)
            } else if let response = exchange.response ?? task.response as? HTTPURLResponse {
                outcome = .success((exchange.data, response))
            } else {
                outcome = .failure(HTTPTransportError(.connectionClosed, "\(target) got no HTTP response"))
            }
            if let continuation = exchange.continuation {
                exchanges[task.taskIdentifier] = nil
                return (continuation, outcome)
            }
            // The task ended before its caller registered (cancelled at once): keep the outcome for it.
            exchange.outcome = outcome
            exchanges[task.taskIdentifier] = exchange
            return (nil, outcome)
        }
        continuation?.resume(with: outcome)
    }
}

/// HTTP authentication challenges (`WWW-Authenticate: Basic`, a 401 of the token endpoint):
/// the protocols answer them themselves, so the transport hands the 401 over as it came.
enum HTTPAuthentication {
    #if canImport(FoundationNetworking)
        /// FoundationNetworking turns every 401 with a Basic or Digest challenge into a challenge
        /// whose every answer but a credential either never completes the task or cancels it; so
        /// the task is cancelled and the delegate delivers the 401 it keeps (``challengedResponse``).
        static let refusal: (disposition: URLSession.AuthChallengeDisposition, credential: URLCredential?, failure: HTTPTransportError?) =
            (.cancelAuthenticationChallenge, nil, nil)
    #else
        /// No credential (the session has no credential storage): the 401 is delivered as it came.
        static let refusal: (disposition: URLSession.AuthChallengeDisposition, credential: URLCredential?, failure: HTTPTransportError?) =
            (.performDefaultHandling, nil, nil)
    #endif
}

extension HTTPTransportError {
    /// Maps URLSession's errors to one typed error.
    static func classify(urlError error: any Error, target: String) -> HTTPTransportError {
        guard let error = error as? URLError else {
            return HTTPTransportError(.connectionFailed, "\(target) failed", underlying: error)
        }
        switch error.code {
        case .cancelled:
            return .cancelled(target)
        case .timedOut:
            return HTTPTransportError(.timedOut, "\(target) timed out", underlying: error)
        case .networkConnectionLost, .badServerResponse, .zeroByteResource, .cannotParseResponse:
            return HTTPTransportError(.connectionClosed, "the connection broke during \(target)", underlying: error)
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted, .serverCertificateHasUnknownRoot,
            .serverCertificateNotYetValid, .clientCertificateRejected, .clientCertificateRequired:
            return HTTPTransportError(.tlsFailure, "the TLS handshake for \(target) failed", underlying: error)
        case .badURL, .unsupportedURL:
            return HTTPTransportError(.invalidRequest, "\(target) is not a request URLSession can send", underlying: error)
        default:
            // FoundationNetworking reports many libcurl failures as an unknown error with curl's text.
            let text = String(describing: error)
            if text.contains("SSL") || text.contains("certificate") || text.contains("TLS") {
                return HTTPTransportError(.tlsFailure, "the TLS handshake for \(target) failed", underlying: error)
            }
            return HTTPTransportError(.connectionFailed, "\(target) could not connect", underlying: error)
        }
    }
}

#if canImport(FoundationNetworking) || !canImport(Security)
    /// What the server must prove and the client presents: on this platform, only what URLSession
    /// does by default (the system's roots, host names checked, no client certificate).
    struct ServerTrust: Sendable {
        /// Refuses every TLS setting but the defaults: FoundationNetworking has no way to apply them.
        init(_ tls: TLSOptions) throws {
            guard tls.isSystemDefault else {
                var asked: [String] = []
                if tls.clientIdentity != nil { asked.append("a client certificate") }
                if tls.trustedRootsPEM != nil || tls.additionalTrustedRootsPEM != nil { asked.append("custom trust roots") }
                if !tls.keyPinnings.isEmpty { asked.append("public-key pinning") }
                if !tls.validatesHostname { asked.append("no host-name check") }
                throw HTTPTransportError(
                    .unsupportedConfiguration,
                    "URLSession on this platform cannot apply \(asked.joined(separator: ", ")); use AsyncHTTPClientTransport (OAuthTransportNIO)"
                )
            }
        }

        /// The answer to a challenge: FoundationNetworking has no certificate challenges, only HTTP
        /// authentication, which gets no answer (``HTTPAuthentication/refusal``).
        func answer(_ challenge: URLAuthenticationChallenge) -> (
            disposition: URLSession.AuthChallengeDisposition, credential: URLCredential?, failure: HTTPTransportError?
        ) {
            HTTPAuthentication.refusal
        }
    }
#endif

extension URLSessionConfiguration {
    /// The settings of HAAPI and token requests (Curity's `URLSessionConfiguration.haapi`): an
    /// ephemeral session that caches nothing and keeps no cookies or credentials, so that tokens,
    /// codes and `Session-Id`s are never stored by URL loading, and a 401 reaches the protocol
    /// code as it came. A new configuration each time.
    public static var haapi: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.makeHaapiSafe()
        return configuration
    }

    /// Makes the configuration cache nothing and keep no cookies or credentials.
    fileprivate func makeHaapiSafe() {
        // Tokens and codes must not be cached or cookies kept: every exchange stands alone.
        urlCache = nil
        requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        httpCookieStorage = nil
        httpShouldSetCookies = false
        urlCredentialStorage = nil  // a 401 reaches the protocol code as it came
    }
}
