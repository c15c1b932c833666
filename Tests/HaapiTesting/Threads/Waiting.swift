import Foundation

/// ``waitFor(timeout:_:)`` gave up.
public struct TimedOut: Error {
    /// A time-out.
    public init() {}
}

/// Waits until `probe` gives a value, looking on the main actor (where view models change and
/// completion handlers' results are read) every 10 ms.
/// - Throws: ``TimedOut`` after `timeout`.
@MainActor public func waitFor<T>(timeout: Duration = .seconds(10), _ probe: @MainActor () -> T?) async throws -> T {
    let deadline = ContinuousClock.now + timeout
    while true {
        if let found = probe() { return found }
        guard ContinuousClock.now < deadline else { throw TimedOut() }
        try await Task.sleep(for: .milliseconds(10))
    }
}

/// Runs blocking `body` (a subprocess, a socket read) on a thread of its own, so that it holds
/// no thread of the concurrency pool while it waits.
public func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
