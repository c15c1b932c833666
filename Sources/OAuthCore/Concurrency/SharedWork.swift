import Foundation

/// One piece of work that many callers wait for, such as the one token refresh for every
/// caller that needs it.
///
/// Waiting on a plain `Task`'s `value` ignores the waiter's cancellation: a cancelled caller
/// would wait for the whole request, timeouts and all. Here each caller stops waiting as soon
/// as its own task is cancelled (with `CancellationError`), and the work itself is cancelled
/// once no caller waits for it any more, which cancels its requests through the transport.
package final class SharedWork<Value: Sendable>: Sendable {
    private struct State {
        var result: Result<Value, any Error>?
        var waiters: [Int: CheckedContinuation<Value, any Error>] = [:]
        var nextWaiter = 0
    }

    private let state: LockedValue<State>
    private let task: Task<Void, Never>

    /// Starts `operation` at once, in a task of its own.
    package init(operation: @escaping @Sendable () async throws -> Value) {
        let state = LockedValue(State())
        self.state = state
        task = Task {
            let result: Result<Value, any Error>
            do { result = .success(try await operation()) } catch { result = .failure(error) }
            let waiters = state.withLock { state in
                state.result = result
                defer { state.waiters = [:] }
                return Array(state.waiters.values)
            }
            for waiter in waiters { waiter.resume(with: result) }
        }
    }

    /// The work's result, or `CancellationError` as soon as the calling task is cancelled.
    package var value: Value {
        get async throws {
            let id = state.withLock { state in
                defer { state.nextWaiter += 1 }
                return state.nextWaiter
            }
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let ready = state.withLock { state -> Result<Value, any Error>? in
                        if let result = state.result { return result }
                        // Cancelled before this wait began: the handler has already run and found nothing.
                        if Task.isCancelled { return .failure(CancellationError()) }
                        state.waiters[id] = continuation
                        return nil
                    }
                    if let ready {
                        if case .failure(let error) = ready, error is CancellationError { cancelIfNobodyWaits() }
                        continuation.resume(with: ready)
                    }
                }
            } onCancel: {
                let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
                waiter?.resume(throwing: CancellationError())
                cancelIfNobodyWaits()
            }
        }
    }

    /// Cancels the work, whoever waits.
    package func cancel() { task.cancel() }

    private func cancelIfNobodyWaits() {
        if state.withLock({ $0.waiters.isEmpty && $0.result == nil }) { task.cancel() }
    }
}
