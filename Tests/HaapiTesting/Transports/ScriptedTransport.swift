import Foundation
import OAuthCore

/// A transport that answers from a script, one step per request, and records what it was sent:
/// the one hand-made transport of the tests. A request past the script's end fails as a refused
/// connection would.
public final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var script: [(TransportRequest) throws -> TransportResponse]
    private var requests: [TransportRequest] = []

    /// A transport that answers the n-th request with the n-th step.
    public init(_ script: [(TransportRequest) throws -> TransportResponse]) { self.script = script }

    /// Answers every request the same way, `count` times.
    public convenience init(repeating answer: @escaping (TransportRequest) throws -> TransportResponse, count: Int = 10) {
        self.init(Array(repeating: answer, count: count))
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let step: (TransportRequest) throws -> TransportResponse = try lock.withLock {
            requests.append(request)
            guard !script.isEmpty else { throw HTTPTransportError(.connectionFailed, "script exhausted") }
            return script.removeFirst()
        }
        return try step(request)
    }

    /// The requests sent so far, in order.
    public var sent: [TransportRequest] { lock.withLock { requests } }
}
