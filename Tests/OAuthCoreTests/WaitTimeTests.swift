import Foundation
import OAuthCore
import Testing

/// ``WaitTime``, ``Deadline`` and `Task.sleep(seconds:)`: waits from outside (a server's
/// `interval`, a caller's timeout) never trap, and are clamped as documented.
@Suite struct WaitTimeTests {
    @Test func hostileSecondsClampInsteadOfTrapping() {
        #expect(WaitTime.clamped(.nan) == 0)
        #expect(WaitTime.clamped(-1) == 0)
        #expect(WaitTime.clamped(-.infinity) == 0)
        #expect(WaitTime.clamped(.infinity) == WaitTime.longest)
        #expect(WaitTime.clamped(1e300) == WaitTime.longest)
        #expect(WaitTime.clamped(2.5) == 2.5)
        #expect(WaitTime.longest == 365 * 24 * 60 * 60)

        #expect(WaitTime.nanoseconds(.nan) == 0)
        #expect(WaitTime.nanoseconds(-1) == 0)
        #expect(WaitTime.nanoseconds(.infinity) == 31_536_000_000_000_000)
        #expect(WaitTime.nanoseconds(1e300) == 31_536_000_000_000_000)
        #expect(WaitTime.nanoseconds(0.25) == 250_000_000)
        #expect(WaitTime.nanoseconds(.leastNonzeroMagnitude) == 0)

        #expect(WaitTime.text(30) == "30 s")
        #expect(WaitTime.text(0.25) == "0.25 s")
        #expect(WaitTime.text(.nan) == "0 s")
        #expect(WaitTime.text(.infinity) == "31536000 s")
    }

    @Test func deadlinesFromHostileSecondsAreBounded() {
        let start = Deadline.now
        for seconds in [TimeInterval.nan, -1, -TimeInterval.infinity] {
            let deadline = Deadline(secondsFromNow: seconds)
            #expect(deadline >= start)
            #expect(deadline.hasPassed)
            #expect(deadline.remainingSeconds == 0)
        }
        for seconds in [TimeInterval.infinity, 1e300] {
            let deadline = Deadline(secondsFromNow: seconds)
            #expect(!deadline.hasPassed)
            #expect(deadline.remainingSeconds <= WaitTime.longest)
            #expect(deadline.remainingSeconds > WaitTime.longest - 60)
        }
        // Saturates instead of overflowing past the clock's end.
        #expect(Deadline(uptimeNanoseconds: .max) > Deadline(secondsFromNow: .infinity))
    }

    @Test func sleepingHostileSecondsDoesNotTrap() async throws {
        let started = Deadline.now
        for seconds in [TimeInterval.nan, -1, -TimeInterval.infinity, 0] {
            try await Task.sleep(seconds: seconds)
        }
        try await Task.sleep(until: Deadline(secondsFromNow: -5))
        // A bound for a hang (NaN or -infinity read as an endless wait), not a timing: a loaded machine once
        // took 5.3 s for these five calls while hundreds of tests ran beside them, and 76 s with a fuzzer
        // running too (the cooperative threads busy with other suites' blocking work).
        #expect(Deadline.now.uptimeNanoseconds - started.uptimeNanoseconds < 600_000_000_000)

        // An endless wait waits (clamped, not trapping) until it is cancelled.
        for seconds in [TimeInterval.infinity, 1e300] {
            let sleeper = Task { try await Task.sleep(seconds: seconds) }
            try await Task.sleep(seconds: 0.02)
            sleeper.cancel()
            await #expect(throws: CancellationError.self) { try await sleeper.value }
        }
    }

    @Test func aDeadlinePassesAfterItsSeconds() async throws {
        let deadline = Deadline(secondsFromNow: 0.05)
        #expect(!deadline.hasPassed)
        #expect(deadline.remainingSeconds > 0 && deadline.remainingSeconds <= 0.05)
        try await Task.sleep(until: deadline)
        #expect(deadline.hasPassed)
        #expect(deadline.remainingSeconds == 0)
    }
}

/// `withDeadline`: the one race between work and a clock, whose callers name their two errors.
@Suite struct DeadlineRaceTests {
    private struct TimedOut: Error {}
    private struct Cancelled: Error {}
    private struct Broken: Error {}

    private static func race<V: Sendable>(
        _ seconds: TimeInterval, _ operation: @escaping @Sendable () async throws -> V
    ) async throws -> V {
        try await withDeadline(
            Deadline(secondsFromNow: seconds), timedOut: { TimedOut() }, cancelled: { Cancelled() }, operation: operation)
    }

    @Test func theWorkThatEndsFirstGivesItsValueOrItsError() async throws {
        #expect(try await Self.race(30) { 42 } == 42)
        await #expect(throws: Broken.self) { try await Self.race(30) { () async throws -> Int in throw Broken() } }
    }

    @Test(.timeLimit(.minutes(1))) func aPassedDeadlineEndsTheWorkAsTimedOut() async throws {
        let cancelled = LockedValue(false)
        await #expect(throws: TimedOut.self) {
            try await Self.race(0.05) { () async throws -> Int in
                do { try await Task.sleep(seconds: 3600) } catch {
                    cancelled.withLock { $0 = true }
                    throw error
                }
                return 1
            }
        }
        // The race waits for the work it stopped: the work saw its cancellation, it did not run out its hour.
        #expect(cancelled.withLock { $0 })
    }

    @Test func anAlreadyCancelledTaskFailsWithoutStartingTheWork() async throws {
        let started = LockedValue(false)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Self.race(30) {
                started.withLock { $0 = true }
                return 1
            }
        }
        await #expect(throws: Cancelled.self) { try await task.value }
        #expect(started.withLock { $0 } == false)
    }

    @Test func aCancelledTaskFailsAsCancelledWhateverTheWorkThrew() async throws {
        let waiting = AsyncStream<Void>.makeStream()
        let task = Task {
            try await Self.race(30) { () async throws -> Int in
                waiting.continuation.yield()
                // The layer below turns the cancellation into an error of its own.
                do { try await Task.sleep(seconds: 30) } catch { throw Broken() }
                return 1
            }
        }
        var iterator = waiting.stream.makeAsyncIterator()
        await iterator.next()
        task.cancel()
        await #expect(throws: Cancelled.self) { try await task.value }
    }
}
