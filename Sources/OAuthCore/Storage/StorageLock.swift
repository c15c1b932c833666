import Foundation

/// A lock that several processes sharing a ``Storage`` take around a read-modify-write of
/// one key: an app and its extensions, or many command-line processes, so that one of them
/// refreshes a session's tokens while the others wait and then read its result.
///
/// ``FileLock`` is the implementation for storage on a file system (``FileStorage``, or an
/// app group's container). A storage that brings its own lock conforms to ``LockingStorage``.
public protocol StorageLock: Sendable {
    /// Runs `body` while holding the lock, on the caller's actor (so an actor can pass a
    /// body that uses its state).
    ///
    /// - Parameters:
    ///   - timeout: how long to wait for another holder, in seconds.
    ///   - whileWaiting: called once, before waiting, when another holder has the lock, with
    ///     what is known of that holder.
    ///   - body: the work to do while holding the lock; its result is returned.
    /// - Throws: ``StorageError`` [`StorageError.Code.lockTimeout`](doc:ErrorCode/lockTimeout) (its ``StorageError/lockHolder``
    ///   saying who holds it, when known) after `timeout`, `CancellationError`, or what `body` throws.
    nonisolated(nonsending) func withLock<T>(
        timeout: TimeInterval, whileWaiting: (@Sendable (LockHolder?) -> Void)?, _ body: () async throws -> T
    ) async throws -> T
}

/// Who holds a ``StorageLock``: written by the holder when it takes the lock, read by a
/// waiter that gives up, so its error can say whom it waited for.
public struct LockHolder: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The holder's process id.
    public var processID: Int32
    /// The holder's process name.
    public var processName: String
    /// When it took the lock.
    public var since: Date

    /// Describes a holder.
    public init(processID: Int32, processName: String, since: Date) {
        self.processID = processID
        self.processName = processName
        self.since = since
    }

    /// This process, now.
    public static func current() -> LockHolder {
        LockHolder(processID: ProcessInfo.processInfo.processIdentifier, processName: ProcessInfo.processInfo.processName, since: Date())
    }

    /// Who and since when: "process 4242 (haapi), holding it since 2026-01-01T12:00:00Z".
    public var description: String {
        "process \(processID) (\(processName)), holding it since \(since.formatted(Date.ISO8601FormatStyle()))"
    }
}

/// A ``Storage`` that knows how processes sharing it take turns on a key.
///
/// ``FileStorage`` conforms with a lock file next to the values. A storage shared through an
/// app group (Keychain with an access group, `UserDefaults(suiteName:)`) can conform by
/// returning a ``FileLock`` in the group's container; or the lock is passed to the session
/// that uses the storage directly.
public protocol LockingStorage: Storage {
    /// The lock that guards read-modify-write cycles of `key` across processes.
    func lock(for key: String) throws -> any StorageLock
}
