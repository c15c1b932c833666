import Foundation

extension MainActor {
    /// Runs `operation` on the main actor from a synchronous nonisolated function the system
    /// calls (a delegate, a presentation anchor, a `Timer`'s or an alert action's block): on the
    /// main thread, as a rule, where it runs at once; called from any other thread, it runs
    /// through the main queue and its answer is waited for, where `MainActor.assumeIsolated`
    /// would trap. The system's threading promises are not all written down; a wrong guess here
    /// costs a hop, not a crash.
    package static func onMainThread<T: Sendable>(_ operation: @MainActor () -> T) -> T {
        #if canImport(Darwin)
            if !Thread.isMainThread {
                return DispatchQueue.main.sync { runIsolated(operation) }
            }
        #endif
        return runIsolated(operation)
    }

    /// `operation`, on the main thread, as the main actor's: `MainActor.assumeIsolated`, which
    /// the iOS 15 and 16 runtimes lack.
    private static func runIsolated<T: Sendable>(_ operation: @MainActor () -> T) -> T {
        if #available(iOS 17, macOS 14, tvOS 17, watchOS 10, *) {
            return assumeIsolated(operation)
        }
        // What `assumeIsolated` does once its check has passed (the caller made sure of the
        // thread): the isolation is dropped from the type.
        return withoutActuallyEscaping(operation) { operation in
            unsafeBitCast(operation, to: (() -> T).self)()
        }
    }
}
