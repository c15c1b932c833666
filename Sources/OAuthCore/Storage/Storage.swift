import Foundation

/// Key-value storage for secrets and state the package must keep (the seeds' `Storage`):
/// registered DCR clients, tokens, DPoP keys.
///
/// Implementations must make each write atomic: after a crash, a key holds its old value
/// or its new one, never part of either.
public protocol Storage: Sendable {
    /// The data stored under `key`, or `nil` if there is none.
    func read(key: String) throws -> Data?
    /// Stores `data` under `key`, replacing what was there.
    func write(key: String, data: Data) throws
    /// Removes `key`; removing a key that is not there is not an error.
    func delete(key: String) throws
}

/// Why a ``Storage`` operation failed (the seeds' `StorageError`).
public struct StorageError: IdsvrError, Hashable {
    /// The kind of failure.
    public typealias Code = ErrorCode<StorageError>

    /// The kind of failure.
    public let code: Code
    /// What happened, naming the key or location.
    public let message: String
    /// The underlying error, described (errno text, OSStatus).
    public let underlying: String?
    /// Who held the lock, for ``Code/lockTimeout``, when known.
    public let lockHolder: LockHolder?

    /// Makes an error.
    public init(_ code: Code, _ message: String, underlying: String? = nil, lockHolder: LockHolder? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
        self.lockHolder = lockHolder
    }

    public var error: String { code.rawValue }
    public var errorDescription: String { message }
    public var failureReason: String { underlying ?? message }
    public var recoverySuggestion: IdsvrErrorHandling {
        switch code {
        case .invalidKey: return .nonRecoverable(action: .fixInput)
        case .unavailable: return .nonRecoverable(action: .fixClientConfiguration)
        // A new login writes over the value that cannot be read.
        case .invalidFormat: return .newHaapiFlow
        default: return .retryable(condition: .whenInForeground)
        }
    }
}

/// A ``Storage`` in memory: for tests, and for state that must not outlive the process.
public final class InMemoryStorage: Storage {
    private let values = LockedValue<[String: Data]>([:])

    /// Empty storage.
    public init() {}

    public func read(key: String) throws -> Data? { values.withLock { $0[key] } }
    public func write(key: String, data: Data) throws { values.withLock { $0[key] = data } }
    public func delete(key: String) throws { _ = values.withLock { $0.removeValue(forKey: key) } }

    /// The keys stored, sorted.
    public var keys: [String] { values.withLock { $0.keys.sorted() } }
}

extension ErrorCode where Domain == StorageError {
    /// The key cannot be stored (empty, or too long).
    public static var invalidKey: Self { Self("invalid_key") }
    /// Reading failed.
    public static var readFailed: Self { Self("read_failed") }
    /// Writing failed; the previous value is unchanged.
    public static var writeFailed: Self { Self("write_failed") }
    /// Deleting failed.
    public static var deleteFailed: Self { Self("delete_failed") }
    /// The storage location cannot be used (missing, not a directory, unsafe permissions).
    public static var unavailable: Self { Self("storage_unavailable") }
    /// A stored value cannot be read: damaged, or written by a newer version of the package.
    /// It is left as it is.
    public static var invalidFormat: Self { Self("invalid_format") }
    /// A ``StorageLock`` stayed taken by another holder for longer than the caller would wait
    /// (``StorageError/lockHolder`` says who, when known).
    public static var lockTimeout: Self { Self("lock_timeout") }
}
