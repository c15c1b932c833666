import Foundation
import OAuthCore
import Synchronization

/// Passes every request to another transport, unchanged, and records the exchange: what was
/// sent, and what came back or went wrong. Put it around a real transport to count what reached
/// the network (refresh grants, token requests, statuses).
public final class RecordingTransport: HTTPTransport, RecordsRequests, Sendable {
    /// The transport that does the work.
    public let base: any HTTPTransport
    // Requests are kept as they leave, outcomes as they complete: with concurrent callers
    // the two orders differ, and each is what some test asks about.
    private let requests = Mutex<[TransportRequest]>([])
    private let outcomes = Mutex<[Result<TransportResponse, any Error>]>([])

    /// Records what goes through `base`.
    public init(_ base: any HTTPTransport) { self.base = base }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        requests.withLock { $0.append(request) }
        do {
            let response = try await base.send(request)
            outcomes.withLock { $0.append(.success(response)) }
            return response
        } catch {
            outcomes.withLock { $0.append(.failure(error)) }
            throw error
        }
    }

    /// The requests sent so far, in the order they were sent.
    public var sent: [TransportRequest] { requests.withLock { $0 } }

    /// The statuses of the responses so far, in the order they came back.
    public var statuses: [Int] { outcomes.withLock { $0.compactMap { try? $0.get().status } } }

    /// The errors thrown so far, in the order they were thrown.
    public var errors: [any Error] {
        outcomes.withLock { outcomes in
            outcomes.compactMap { outcome -> (any Error)? in
                guard case .failure(let error) = outcome else { return nil }
                return error
            }
        }
    }
}
