import Foundation
import OAuthCore

/// How a fake transport answers one request: with a response, or by throwing as a failed
/// exchange would.
public typealias TransportAnswer = (TransportRequest) throws -> TransportResponse

/// A transport that answers from a script, one step per request, and records what it was sent.
/// A request past the script's end fails as a refused connection would.
///
/// For a server whose answer depends on the request rather than on the order, see
/// ``RoutedTransport``; to watch or bend a real transport, ``RecordingTransport`` and
/// ``InterceptingTransport``.
public final class ScriptedTransport: HTTPTransport, RecordsRequests, @unchecked Sendable {
    // The steps may capture anything; the lock is what makes the class Sendable.
    private let lock = NSLock()
    private var script: [TransportAnswer]
    private var requests: [TransportRequest] = []

    /// A transport that answers the n-th request with the n-th step.
    public init(_ script: [TransportAnswer]) { self.script = script }

    /// Answers every request the same way, `count` times.
    public convenience init(repeating answer: @escaping TransportAnswer, count: Int = 10) {
        self.init(Array(repeating: answer, count: count))
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let step: TransportAnswer = try lock.withLock {
            requests.append(request)
            guard !script.isEmpty else { throw HTTPTransportError(.connectionFailed, "script exhausted") }
            return script.removeFirst()
        }
        return try step(request)
    }

    /// The requests sent so far, in order.
    public var sent: [TransportRequest] { lock.withLock { requests } }
}
