import Foundation

/// Runs async work one piece at a time, in the order it arrives, for the tasks of one actor.
///
/// An actor is reentrant: while one call awaits I/O, another may start. Work that must not
/// interleave with itself (a change of stored tokens, which reads, sends and writes) takes its
/// turn here instead.
///
/// Not `Sendable`: it belongs to one actor and runs only on that actor's executor.
final class TurnQueue {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` once every piece of work that arrived earlier has finished.
    nonisolated(nonsending) func run<T>(_ body: nonisolated(nonsending) () async throws -> T) async rethrows -> T {
        while busy { await withCheckedContinuation { waiting.append($0) } }
        busy = true
        defer {
            busy = false
            if !waiting.isEmpty { waiting.removeFirst().resume() }
        }
        return try await body()
    }
}
