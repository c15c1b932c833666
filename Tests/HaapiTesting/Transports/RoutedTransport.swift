import Foundation
import OAuthCore

/// A transport that answers like a small server: each request goes to the first route that
/// matches its method and path, and every answer may read and change the server's `State`.
///
/// Answers run one at a time, under the transport's lock, so a fake server is its routes and a
/// value type of state, with no locking of its own; a test reads or changes that state through
/// ``state`` and ``withState(_:)``. Every request is recorded (``RecordsRequests``), so counts
/// per endpoint and the parameters sent need no state at all. A request no route matches gets
/// `otherwise`: by default a 404.
public final class RoutedTransport<State: Sendable>: HTTPTransport, RecordsRequests, @unchecked Sendable {
    /// How a route answers: from the request and the server's state, which it may change.
    public typealias Answer = @Sendable (TransportRequest, inout State) throws -> TransportResponse

    /// An endpoint of the fake server.
    public struct Route: Sendable {
        /// The method it answers (upper case), or `nil` for any.
        public let method: String?
        /// The URL path it answers, exactly.
        public let path: String
        let answer: Answer

        /// A route for `path` (exactly) and `method` (`nil`: any method).
        public init(_ method: String?, _ path: String, answer: @escaping Answer) {
            self.method = method?.uppercased()
            self.path = path
            self.answer = answer
        }

        /// A `GET` route.
        public static func get(_ path: String, answer: @escaping Answer) -> Route { Route("GET", path, answer: answer) }
        /// A `POST` route.
        public static func post(_ path: String, answer: @escaping Answer) -> Route { Route("POST", path, answer: answer) }
        /// A route for any method.
        public static func any(_ path: String, answer: @escaping Answer) -> Route { Route(nil, path, answer: answer) }

        func matches(_ request: TransportRequest) -> Bool {
            request.url.path == path && (method == nil || method == request.method)
        }
    }

    private let lock = NSLock()
    private var current: State
    private var requests: [TransportRequest] = []
    private let routes: [Route]
    private let otherwise: Answer

    /// A server with `routes` (the first match answers), starting from `state`.
    public init(
        state: State, _ routes: [Route], otherwise: @escaping Answer = { request, _ in .text("not found", status: 404, to: request) }
    ) {
        current = state
        self.routes = routes
        self.otherwise = otherwise
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        try lock.withLock {
            requests.append(request)
            let answer = routes.first { $0.matches(request) }?.answer ?? otherwise
            return try answer(request, &current)
        }
    }

    /// The server's state now.
    public var state: State { lock.withLock { current } }

    /// Reads or changes the server's state, between two requests and never during one.
    @discardableResult
    public func withState<Value>(_ body: (inout State) throws -> Value) rethrows -> Value {
        try lock.withLock { try body(&current) }
    }

    /// The requests sent so far, in order.
    public var sent: [TransportRequest] { lock.withLock { requests } }
}

extension RoutedTransport where State == Void {
    /// A server with `routes` and no state: what it answers depends on the request alone.
    public convenience init(_ routes: [Route], otherwise: @escaping Answer = { request, _ in .text("not found", status: 404, to: request) })
    {
        self.init(state: (), routes, otherwise: otherwise)
    }
}
