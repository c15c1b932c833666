import Foundation

extension MainActor {
    /// Runs `operation` on the main actor from a synchronous nonisolated function that the
    /// system calls on the main thread (a delegate, a `Timer`'s block): `MainActor.assumeIsolated`,
    /// which the iOS 15 and 16 runtimes lack.
    ///
    /// Before iOS 17 (macOS 14, tvOS 17, watchOS 10) it checks, as `assumeIsolated` does, that it
    /// runs on the main queue (a trap when not: a broken assumption is a bug), then calls
    /// `operation` as a nonisolated function.
    package static func assumeIsolatedOnMainThread<T: Sendable>(_ operation: @MainActor () throws -> T) rethrows -> T {
        if #available(iOS 17, macOS 14, tvOS 17, watchOS 10, *) {
            return try assumeIsolated(operation)
        }
        #if canImport(Darwin)
        dispatchPrecondition(condition: .onQueue(.main))
        #endif
        // What `assumeIsolated` does once its check has passed: the isolation is dropped from the type.
        return try withoutActuallyEscaping(operation) { operation in
            try unsafeBitCast(operation, to: (() throws -> T).self)()
        }
    }
}
