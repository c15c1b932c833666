import Foundation

/// A value only reached under a lock: shared mutable state for code that cannot be an actor
/// (synchronous APIs, static settings). Foundation's lock, so it works in every layer.
package final class LockedValue<Value: Sendable>: @unchecked Sendable {
    // Every access to `value` holds `lock`.
    private let lock = NSLock()
    private var value: Value

    /// A box holding `value`.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, under the lock.
    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
