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
/// task waiting for the lock never starves the task that holds it.
public struct FileLock: Sendable {
    /// The lock file (created `0600` when missing; its contents are never used).
    public let url: URL

    /// A lock on the file at `url`.
    public init(url: URL) { self.url = url }

    /// Runs `body` while holding the lock.
    ///
    /// - Parameters:
    ///   - timeout: how long to wait for another holder before giving up.
    ///   - pollInterval: how often to try again while another holder has the lock.
    /// - Throws: ``StorageError`` ``StorageError/Code/unavailable`` when the lock file cannot be
    ///   opened, ``StorageError/Code/lockTimeout`` when the lock stays taken for `timeout`,
    ///   `CancellationError` when the task is cancelled while waiting, or what `body` throws.
    @discardableResult
    public func withLock<T>(
        timeout: Duration = .seconds(60), pollInterval: Duration = .milliseconds(10), _ body: () async throws -> T
    ) async throws -> T {
        let descriptor = try await acquire(timeout: timeout, pollInterval: pollInterval)
        defer {
            _ = flock(descriptor, LOCK_UN)
            close(descriptor)
        }
        return try await body()
    }

    private func acquire(timeout: Duration, pollInterval: Duration) async throws -> Int32 {
        let path = url.path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StorageError(.unavailable, "cannot open the lock file \(path)", underlying: String(cString: strerror(errno)))
        }
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let failure = errno
            if failure == EINTR { continue }
            guard failure == EWOULDBLOCK else {
                close(descriptor)
                throw StorageError(.unavailable, "cannot lock \(path)", underlying: String(cString: strerror(failure)))
            }
            guard ContinuousClock.now < deadline else {
                close(descriptor)
                throw StorageError(.lockTimeout, "\(path) stayed locked by another holder for \(timeout)")
            }
            do { try await Task.sleep(for: pollInterval) } catch {
                close(descriptor)
                throw error
            }
        }
        return descriptor
    }
}
