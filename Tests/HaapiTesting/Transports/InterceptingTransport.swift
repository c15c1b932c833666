import Foundation
import OAuthCore
import Synchronization

/// The error an ``InterceptingTransport`` throws for a request it was told to fail: a failure
/// below HTTP that no real server sent.
public struct InjectedFailure: Error, Equatable {
    /// The failure.
    public init() {}
}

/// Stands between a client and another transport and bends chosen exchanges: changes a request
/// on its way out, delays it, answers it without sending it, fails it, or changes the response
/// on its way back.
///
/// The hooks given at creation apply to every request; ``interceptNext(where:answer:)`` and
/// ``failNext(where:)`` apply once, to the next request that matches, so a test can break one
/// exchange in the middle of a flow.
public final class InterceptingTransport: HTTPTransport, Sendable {
    /// Runs before a request is sent: it may change the request, wait, throw, or return a
    /// response that answers the request without sending it (`nil` sends it).
    public typealias RequestHook = @Sendable (inout TransportRequest) async throws -> TransportResponse?
    /// Runs on every response `base` returns, before the caller sees it.
    public typealias ResponseHook = @Sendable (TransportRequest, inout TransportResponse) throws -> Void

    /// The transport that sends what is not intercepted.
    public let base: any HTTPTransport
    private let onRequest: RequestHook
    private let onResponse: ResponseHook
    private let pending = Mutex<
        [(matches: @Sendable (TransportRequest) -> Bool, answer: @Sendable (TransportRequest) throws -> TransportResponse)]
    >([])

    /// A transport over `base` with hooks for every request (by default, none).
    public init(_ base: any HTTPTransport, request: @escaping RequestHook = { _ in nil }, response: @escaping ResponseHook = { _, _ in }) {
        self.base = base
        onRequest = request
        onResponse = response
    }

    /// Answers the next request that `matches` with `answer` instead of sending it, once.
    /// Interceptions queue up: each takes the first request that matches it.
    public func interceptNext(
        where matches: @escaping @Sendable (TransportRequest) -> Bool = { _ in true },
        answer: @escaping @Sendable (TransportRequest) throws -> TransportResponse
    ) {
        pending.withLock { $0.append((matches, answer)) }
    }

    /// Fails the next request that `matches` with ``InjectedFailure``, once, without sending it.
    public func failNext(where matches: @escaping @Sendable (TransportRequest) -> Bool = { _ in true }) {
        interceptNext(where: matches) { _ in throw InjectedFailure() }
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let once = pending.withLock { pending -> (@Sendable (TransportRequest) throws -> TransportResponse)? in
            guard let index = pending.firstIndex(where: { $0.matches(request) }) else { return nil }
            return pending.remove(at: index).answer
        }
        if let once { return try once(request) }
        var request = request
        if let answer = try await onRequest(&request) { return answer }
        var response = try await base.send(request)
        try onResponse(request, &response)
        return response
    }
}
