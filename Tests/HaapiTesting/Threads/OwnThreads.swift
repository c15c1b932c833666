import Foundation
import Testing

/// Runs each test of a suite on threads of its own rather than on the process's shared
/// executor threads, of which Swift starts one per core (two here) and never more. A test that
/// waits by blocking (a `haapi` subprocess, a tmux pane, a sleep) would otherwise hold one of
/// them for seconds, and with two such tests at once every in-process server and client of
/// every other test stops until one ends: measured, a 10 ms sleep elsewhere then took as long
/// as the blocking call.
public struct OwnThreadsTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    /// Each test case, not the suite as a whole: the suite's own scope is only the start of its tests.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? { testCase == nil ? nil : self }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { try await function() }
    }
}

extension Trait where Self == OwnThreadsTrait {
    /// The suite's tests run on threads of their own: see ``OwnThreadsTrait``.
    public static var ownThreads: Self { Self() }
}

/// An executor that runs every job on a new thread: a job that blocks holds only its own.
final class ThreadPerJobExecutor: TaskExecutor {
    static let shared = ThreadPerJobExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread { job.runSynchronously(on: executor) }.start()
    }
}
