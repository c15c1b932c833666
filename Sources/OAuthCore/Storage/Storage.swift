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

/// Why a ``Storage`` operation failed (Curity's `StorageError`): reading, writing or deleting,
/// with what went wrong as the `cause`.
///
/// An app's own ``Storage`` throws these with its own errors as causes. The package's storages,
/// locks and token session give a ``Failure`` as the cause, whose ``Failure/code`` says more
/// ([`StorageError.Failure.Code.lockTimeout`](doc:ErrorCode/lockTimeout), [`StorageError.Failure.Code.invalidFormat`](doc:ErrorCode/invalidFormat), ...); ``code`` and
/// ``lockHolder`` read it from here.
public enum StorageError: IdsvrError, LocalizedError {
    /// Writing failed; the previous value is unchanged.
    case writeError(cause: any Error)
    /// Reading failed.
    case readError(cause: any Error)
    /// Deleting failed.
    case deleteError(cause: any Error)

    /// The package's kinds of storage failure.
    public typealias Code = Failure.Code

    /// What went wrong in one of the package's storages, locks or stored sessions: the cause of
    /// the ``StorageError`` they throw.
    public struct Failure: CodedError, Hashable {
        /// The kind of failure.
        public let code: Code
        /// What happened, naming the key or location.
        public let message: String
        /// The underlying error, described (errno text, OSStatus).
        public let underlying: String?
        /// Who held the lock, for [`Code.lockTimeout`](doc:ErrorCode/lockTimeout), when known.
        public let lockHolder: LockHolder?

        /// Makes a failure.
        public init(_ code: Code, _ message: String, underlying: String? = nil, lockHolder: LockHolder? = nil) {
            self.code = code
            self.message = message
            self.underlying = underlying
            self.lockHolder = lockHolder
        }

        /// The underlying error, described (errno text, `OSStatus`), else the message.
        public var failureReason: String { underlying ?? message }
        /// A configuration change for a key or location that cannot be used; a new login for a value that
        /// cannot be read; a retry in the foreground otherwise (a locked device, a taken lock, a full disk).
        public var recoverySuggestion: IdsvrErrorHandling {
            switch code {
            case .invalidKey, .unavailable: return .unrecoverable(action: .modifyConfiguration(reason: message))
            // A new login writes over the value that cannot be read.
            case .invalidFormat: return .newHaapiFlow
            // The Keychain of a locked device, a lock another process holds, a full disk.
            default: return .retryable(condition: .whenAppInForeground)
            }
        }
    }

    /// A ``Failure`` of `code`, as the case its code belongs to: reading ([`StorageError.Failure.Code.readFailed`](doc:ErrorCode/readFailed),
    /// [`StorageError.Failure.Code.invalidFormat`](doc:ErrorCode/invalidFormat)), deleting ([`StorageError.Failure.Code.deleteFailed`](doc:ErrorCode/deleteFailed)), else writing
    /// (a write that could not take the lock, a location that cannot be used, a key that cannot be stored).
    public init(_ code: Code, _ message: String, underlying: String? = nil, lockHolder: LockHolder? = nil) {
        let failure = Failure(code, message, underlying: underlying, lockHolder: lockHolder)
        switch code {
        case .readFailed, .invalidFormat: self = .readError(cause: failure)
        case .deleteFailed: self = .deleteError(cause: failure)
        default: self = .writeError(cause: failure)
        }
    }

    /// The error behind the failure.
    public var cause: (any Error)? {
        switch self {
        case .writeError(let cause), .readError(let cause), .deleteError(let cause): return cause
        }
    }

    /// The package's kind of failure, when the cause is a ``Failure``.
    public var code: Code? { (cause as? Failure)?.code }

    /// Who held the lock, for [`StorageError.Failure.Code.lockTimeout`](doc:ErrorCode/lockTimeout), when known.
    public var lockHolder: LockHolder? { (cause as? Failure)?.lockHolder }

    /// What happened, naming the key or location: the ``Failure``'s message, else the description.
    public var message: String { (cause as? Failure)?.message ?? errorDescription ?? error }

    /// The underlying error of a ``Failure``, described (errno text, OSStatus).
    public var underlying: String? { (cause as? Failure)?.underlying }

    /// The ``Failure``'s code; for an app's own cause, `storage_read_error`, `storage_write_error` or
    /// `storage_delete_error`.
    public var error: String {
        if let code { return code.rawValue }
        switch self {
        case .writeError: return "storage_write_error"
        case .readError: return "storage_read_error"
        case .deleteError: return "storage_delete_error"
        }
    }

    /// The cause's description; for a cause without one, the operation that failed and the cause.
    public var errorDescription: String? {
        if let cause = cause as? any IdsvrError, let description = cause.errorDescription { return description }
        let operation: String
        switch self {
        case .writeError: operation = "writing to"
        case .readError: operation = "reading from"
        case .deleteError: operation = "deleting from"
        }
        return "\(operation) the storage failed: \(cause.map { String(describing: $0) } ?? "unknown cause")"
    }

    /// The cause's reason, else the cause described.
    public var failureReason: String {
        (cause as? any IdsvrError)?.failureReason ?? cause.map { String(describing: $0) } ?? errorDescription ?? error
    }

    /// The cause's own, else a retry in the foreground (an app's own storage fails most often on a locked
    /// device).
    public var recoverySuggestion: IdsvrErrorHandling {
        // An app's own storage: most often the device is locked (file protection, the Keychain).
        (cause as? any IdsvrError)?.recoverySuggestion ?? .retryable(condition: .whenAppInForeground)
    }
}

/// A ``Storage`` in memory: for tests, and for state that must not outlive the process.
public final class InMemoryStorage: Storage {
    private let values = LockedValue<[String: Data]>([:])

    /// Empty storage.
    public init() {}

    /// The data stored under `key`, or `nil`.
    public func read(key: String) throws -> Data? { values.withLock { $0[key] } }
    /// Stores `data` under `key`, replacing what was there.
    public func write(key: String, data: Data) throws { values.withLock { $0[key] = data } }
    /// Removes `key`, if it is there.
    public func delete(key: String) throws { _ = values.withLock { $0.removeValue(forKey: key) } }

    /// The keys stored, sorted.
    public var keys: [String] { values.withLock { $0.keys.sorted() } }
}

extension ErrorCode where Domain == StorageError.Failure {
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
