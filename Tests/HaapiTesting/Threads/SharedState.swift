/// Process-wide state that tests of different targets change. Every test target runs in one
/// process, tests in parallel, and `.serialized` orders a suite's own tests only: a test that
/// changes such state holds it with ``exclusively(_:)`` for as long as it depends on it. (The
/// executor threads are shared too: see ``OwnThreadsTrait``.)
public enum SharedState: Sendable {
    /// `HaapiLogger`'s global settings and sinks.
    case haapiLogger

    /// Runs `body` while no other test holds this state; waiters take their turns in order.
    public func exclusively<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        let turns =
            switch self {
            case .haapiLogger: Self.haapiLoggerTurns
            }
        await turns.begin()
        do {
            let result = try await body()
            await turns.end()
            return result
        } catch {
            await turns.end()
            throw error
        }
    }

    private static let haapiLoggerTurns = Turns()
}

/// One holder at a time, the others waiting in order.
private actor Turns {
    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func begin() async {
        guard held else {
            held = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the turn to the first waiter (which then holds it), or frees it.
    func end() {
        if waiting.isEmpty { held = false } else { waiting.removeFirst().resume() }
    }
}
