import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive lock on a file (`flock`), held while a body runs: one holder at a time among
/// all the processes, and all the tasks of one process, that lock the same file.
///
/// The kernel drops the lock when its holder's descriptor closes, so a holder that crashes
/// or is killed never leaves the lock stuck. Waiting polls without blocking a thread, so a
/// task waiting for the lock never starves the task that holds it. The holder writes its
/// ``LockHolder`` (process id and name, since when) into the file, so a waiter that gives up
/// can say whom it waited for.
///
/// On iOS, a lock file in an app group's container must not be held while the app is
/// suspended (the system ends a suspended app that holds one): hold it only around the work
/// it guards, inside a background task.
public struct FileLock: StorageLock {
    /// The lock file (created `0600` when missing; never followed when it is a symbolic link).
    public let url: URL

    /// A lock on the file at `url`.
    public init(url: URL) { self.url = url }

    /// Runs `body` while holding the lock.
    ///
    /// - Parameters:
    ///   - timeout: how long to wait for another holder before giving up, in seconds.
    ///   - pollInterval: how often to try again while another holder has the lock, in seconds.
    ///   - whileWaiting: called once, when another holder has the lock, with that holder.
    ///   - body: the work to do while holding the lock; its result is returned.
    /// - Throws: ``StorageError`` [`StorageError.Code.unavailable`](doc:ErrorCode/unavailable) when the lock file cannot be
    ///   opened or is a symbolic link, a hard link or not a regular file (it is then left as it
    ///   is), [`StorageError.Code.lockTimeout`](doc:ErrorCode/lockTimeout) (naming the holder) when the lock stays taken
    ///   for `timeout`, `CancellationError` when the task is cancelled while waiting, or what `body` throws.
    @discardableResult
    public nonisolated(nonsending) func withLock<T>(
        timeout: TimeInterval = 60, pollInterval: TimeInterval = 0.01,
        whileWaiting: (@Sendable (LockHolder?) -> Void)? = nil, _ body: () async throws -> T
    ) async throws -> T {
        let descriptor = try await acquire(timeout: timeout, pollInterval: pollInterval, whileWaiting: whileWaiting)
        defer {
            _ = ftruncate(descriptor, 0)  // no stale holder for the next waiter to name
            _ = flock(descriptor, LOCK_UN)
            close(descriptor)
        }
        return try await body()
    }

    /// Runs `body` while holding the lock, trying again every 10 ms while another holder has it
    /// (``LockingStorage``'s form of ``withLock(timeout:pollInterval:whileWaiting:_:)``).
    /// - Throws: as ``withLock(timeout:pollInterval:whileWaiting:_:)`` does.
    public nonisolated(nonsending) func withLock<T>(
        timeout: TimeInterval, whileWaiting: (@Sendable (LockHolder?) -> Void)?, _ body: () async throws -> T
    ) async throws -> T {
        try await withLock(timeout: timeout, pollInterval: 0.01, whileWaiting: whileWaiting, body)
    }

    /// Who holds the lock now, as the holder wrote it; `nil` when the lock is free or the
    /// holder wrote nothing readable.
    public func holder() -> LockHolder? {
        guard let data = FileManager.default.contents(atPath: url.path), !data.isEmpty else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(LockHolder.self, from: data)
    }

    private nonisolated(nonsending) func acquire(
        timeout: TimeInterval, pollInterval: TimeInterval, whileWaiting: (@Sendable (LockHolder?) -> Void)?
    ) async throws -> Int32 {
        let path = url.path
        // A link planted as the lock file would make the holder's writes (and the truncation at
        // release) land on the file it points to: a symbolic link is never followed, and a hard
        // link (another name of some other file) is refused.
        let descriptor: Int32
        do {
            descriptor = try PlainFile.descriptor(path, flags: O_RDWR | O_CREAT, singleLink: true)
        } catch {
            switch error {
            case .symbolicLink:
                throw StorageError(
                    .unavailable, "the lock file \(path) is a symbolic link, which is never followed: remove it (rm \(path))",
                    underlying: String(cString: strerror(ELOOP)))
            case .notPlain:
                throw StorageError(
                    .unavailable, "the lock file \(path) is not a plain file of its own (a link or a device): remove it (rm \(path))")
            case .missing:
                throw StorageError(.unavailable, "cannot open the lock file \(path)", underlying: String(cString: strerror(ENOENT)))
            case .failed(let reason): throw StorageError(.unavailable, "cannot open the lock file \(path)", underlying: reason)
            }
        }
        let deadline = Deadline(secondsFromNow: timeout)
        var announced = false
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let failure = errno
            if failure == EINTR { continue }
            guard failure == EWOULDBLOCK else {
                close(descriptor)
                throw StorageError(.unavailable, "cannot lock \(path)", underlying: String(cString: strerror(failure)))
            }
            if !announced {
                announced = true
                whileWaiting?(holder())
            }
            guard !deadline.hasPassed else {
                close(descriptor)
                let holder = holder()
                throw StorageError(
                    .lockTimeout, "\(path) stayed locked for \(WaitTime.text(timeout)) by " + (holder.map { "\($0)" } ?? "another holder"),
                    lockHolder: holder)
            }
            do { try await Task.sleep(seconds: pollInterval) } catch {
                close(descriptor)
                throw error
            }
        }
        writeHolder(descriptor)
        return descriptor
    }

    /// Replaces the file's contents with this process's ``LockHolder`` (best effort: the
    /// lock works without it).
    private func writeHolder(_ descriptor: Int32) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        guard let data = try? encoder.encode(LockHolder.current()) else { return }
        _ = ftruncate(descriptor, 0)
        data.withUnsafeBytes { bytes in _ = pwrite(descriptor, bytes.baseAddress, bytes.count, 0) }
    }
}
