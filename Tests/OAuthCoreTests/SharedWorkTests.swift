import Foundation
import OAuthCore
import Testing

/// ``SharedWork``: one piece of work for many callers, each of whom can stop waiting.
@Suite struct SharedWorkTests {
    /// Work that runs until it is released or cancelled, and says which.
    final class Gate: Sendable {
        let released = LockedValue(false)
        let sawCancellation = LockedValue(false)
        let runs = LockedValue(0)

        func work() async throws -> String {
            runs.withLock { $0 += 1 }
            while !released.withLock({ $0 }) {
                do { try await Task.sleep(for: .milliseconds(10)) } catch {
                    sawCancellation.withLock { $0 = true }
                    throw error
                }
            }
            return "done"
        }
    }

    @Test func aCancelledCallerStopsWaitingWhileTheOthersGetTheResult() async throws {
        let gate = Gate()
        let work = SharedWork { try await gate.work() }
        let leaving = Task { try await work.value }
        let staying = Task { try await work.value }
        try await Task.sleep(for: .milliseconds(50))
        leaving.cancel()
        // The cancelled caller is answered while the work still runs.
        await #expect(throws: CancellationError.self) { try await leaving.value }
        #expect(!gate.released.withLock { $0 })
        gate.released.withLock { $0 = true }
        #expect(try await staying.value == "done")
        #expect(!gate.sawCancellation.withLock { $0 })
        #expect(gate.runs.withLock { $0 } == 1)
    }

    @Test func theWorkIsCancelledWhenNobodyWaitsForIt() async throws {
        let gate = Gate()
        let work = SharedWork { try await gate.work() }
        let callers = (0..<3).map { _ in Task { try await work.value } }
        try await Task.sleep(for: .milliseconds(50))
        for caller in callers { caller.cancel() }
        for caller in callers { await #expect(throws: CancellationError.self) { try await caller.value } }
        let deadline = ContinuousClock.now + .seconds(5)
        while !gate.sawCancellation.withLock({ $0 }) && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(gate.sawCancellation.withLock { $0 })
    }

    @Test func aCallerAlreadyCancelledDoesNotWait() async throws {
        let gate = Gate()
        let work = SharedWork { try await gate.work() }
        let caller = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await work.value
        }
        await #expect(throws: CancellationError.self) { try await caller.value }
        // It was the only caller: nobody waits, so the work stops too.
        let deadline = ContinuousClock.now + .seconds(5)
        while !gate.sawCancellation.withLock({ $0 }) && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(gate.sawCancellation.withLock { $0 })
    }

    @Test func theWorksFailureReachesEveryCaller() async throws {
        struct Refused: Error {}
        let work = SharedWork<String> {
            try await Task.sleep(for: .milliseconds(20))
            throw Refused()
        }
        let callers = (0..<2).map { _ in Task { try await work.value } }
        for caller in callers { await #expect(throws: Refused.self) { try await caller.value } }
    }
}
