import Foundation

// The package's waits and deadlines, in seconds (Foundation's `TimeInterval`, as its public API
// takes them), on what iOS 15 has: `Duration`, `ContinuousClock` and `Task.sleep(for:)` are iOS 16.
// Package access, not public: the modules re-export OAuthCore into apps, whose own
// `Task.sleep(seconds:)` or `Deadline` must not become ambiguous.

/// Seconds to wait, made safe for the system's timers.
///
/// A wait can come from outside: a server's `interval` or `expires_in`, a caller's timeout.
/// Turning a `Double` into an integer traps on NaN, on infinity and on values too large,
/// so every wait and deadline of the package converts through ``clamped(_:)`` and
/// ``nanoseconds(_:)``: a negative or NaN wait is no wait, one longer than ``longest``
/// (infinity included) is ``longest``.
package enum WaitTime {
    /// The longest wait: one year (3.15 × 10¹⁶ ns, far inside `UInt64` and `Int64`).
    package static let longest: TimeInterval = 365 * 24 * 60 * 60

    /// `seconds` within `0...longest`: 0 when negative or NaN, ``longest`` when longer.
    package static func clamped(_ seconds: TimeInterval) -> TimeInterval {
        guard seconds > 0 else { return 0 }  // NaN is not greater than 0 either
        return min(seconds, longest)
    }

    /// ``clamped(_:)`` in whole nanoseconds (rounded to the nearest); never traps.
    package static func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
        UInt64((clamped(seconds) * 1e9).rounded())
    }

    /// `seconds` for a message: `30 s`, `0.25 s`.
    package static func text(_ seconds: TimeInterval) -> String {
        let seconds = clamped(seconds)
        return seconds == seconds.rounded() ? "\(OutsideNumber.wholeSeconds(seconds)) s" : "\(seconds) s"
    }
}

/// A moment on the system's monotonic clock (`DispatchTime`), which changes to the wall clock
/// do not move: when a wait that started earlier must end.
package struct Deadline: Sendable, Hashable, Comparable {
    /// The moment, in `DispatchTime.uptimeNanoseconds`.
    package let uptimeNanoseconds: UInt64

    /// The moment `uptimeNanoseconds` on the monotonic clock.
    package init(uptimeNanoseconds: UInt64) { self.uptimeNanoseconds = uptimeNanoseconds }

    /// Now.
    package static var now: Deadline { Deadline(uptimeNanoseconds: DispatchTime.now().uptimeNanoseconds) }

    /// `seconds` from now, clamped as ``WaitTime/clamped(_:)`` says.
    package init(secondsFromNow seconds: TimeInterval) {
        let (sum, overflow) = DispatchTime.now().uptimeNanoseconds.addingReportingOverflow(WaitTime.nanoseconds(seconds))
        self.init(uptimeNanoseconds: overflow ? .max : sum)
    }

    /// Whether the moment has come.
    package var hasPassed: Bool { Deadline.now >= self }

    /// The seconds left until the moment; 0 once it has passed.
    package var remainingSeconds: TimeInterval {
        let now = DispatchTime.now().uptimeNanoseconds
        return now >= uptimeNanoseconds ? 0 : TimeInterval(uptimeNanoseconds - now) / 1e9
    }

    package static func < (lhs: Deadline, rhs: Deadline) -> Bool { lhs.uptimeNanoseconds < rhs.uptimeNanoseconds }
}

extension Task where Success == Never, Failure == Never {
    /// Suspends the task for `seconds`, clamped as ``WaitTime/clamped(_:)`` says (NaN or less
    /// than 0 does not wait, more than a year waits a year).
    /// - Throws: `CancellationError` when the task is cancelled while it waits.
    package static func sleep(seconds: TimeInterval) async throws {
        try await sleep(nanoseconds: WaitTime.nanoseconds(seconds))
    }

    /// Suspends the task until `deadline` (not at all when it has passed).
    /// - Throws: `CancellationError` when the task is cancelled while it waits.
    package static func sleep(until deadline: Deadline) async throws {
        try await sleep(seconds: deadline.remainingSeconds)
    }
}

/// Runs `operation` against the clock: its value when it ends before `deadline`, `timedOut()`
/// when the deadline passes first, `cancelled()` when the calling task is cancelled.
///
/// The package's one race between work and a deadline (transports, user agents): each caller
/// names its own two errors. A task cancelled before the race starts fails at once, without
/// starting `operation`; a failure of `operation` while the task is cancelled is the
/// cancellation, whatever the layer below made of it, so a caller that cancels always sees
/// `cancelled()`.
package func withDeadline<Value: Sendable>(
    _ deadline: Deadline,
    timedOut: @escaping @Sendable () -> any Error,
    cancelled: @escaping @Sendable () -> any Error,
    operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    if Task.isCancelled { throw cancelled() }
    do {
        return try await withThrowingTaskGroup(of: Value.self) { group in
            group.addTask(operation: operation)
            group.addTask {
                do { try await Task.sleep(until: deadline) } catch { throw cancelled() }
                throw timedOut()
            }
            defer { group.cancelAll() }
            return try await group.next()!  // two children: the first to end decides
        }
    } catch {
        if Task.isCancelled { throw cancelled() }
        throw error
    }
}
