import Foundation
import NIOConcurrencyHelpers
import OAuthCore
import Testing

@Suite("FileLock")
struct FileLockTests {
    func lockFile() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("haapi-lock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("profile.lock")
    }

    @Test func holdersNeverOverlap() async throws {
        let url = try lockFile()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        // (inside, most inside at once, entries)
        let counters = NIOLockedValueBox((0, 0, 0))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    try await FileLock(url: url).withLock {
                        counters.withLockedValue {
                            $0.0 += 1
                            $0.1 = max($0.1, $0.0)
                            $0.2 += 1
                        }
                        try await Task.sleep(for: .milliseconds(5))
                        counters.withLockedValue { $0.0 -= 1 }
                    }
                }
            }
            try await group.waitForAll()
        }
        let (inside, most, entries) = counters.withLockedValue { $0 }
        #expect(inside == 0)
        #expect(most == 1, "two holders were inside at once")
        #expect(entries == 16)
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func aWaiterGivesUpWithATypedErrorAndTheLockIsFreedAfterAThrow() async throws {
        let url = try lockFile()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        struct Boom: Error {}
        try await FileLock(url: url).withLock {
            do {
                try await FileLock(url: url).withLock(timeout: 0.05) { Issue.record("entered a held lock") }
                Issue.record("no timeout")
            } catch let error as StorageError {
                #expect(error.code == .lockTimeout)
            }
        }
        await #expect(throws: Boom.self) { try await FileLock(url: url).withLock { throw Boom() } }
        // Free again: entered at once.
        let entered = try await FileLock(url: url).withLock(timeout: 0.05) { true }
        #expect(entered)
    }

    @Test func aWaiterThatGivesUpSaysWhoHoldsTheLock() async throws {
        let url = try lockFile()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let announced = NIOLockedValueBox<[LockHolder?]>([])
        try await FileLock(url: url).withLock {
            let holder = try #require(FileLock(url: url).holder())
            #expect(holder.processID == ProcessInfo.processInfo.processIdentifier)
            #expect(holder.processName == ProcessInfo.processInfo.processName)
            #expect(abs(holder.since.timeIntervalSinceNow) < 5)
            do {
                try await FileLock(url: url).withLock(
                    timeout: 0.1, whileWaiting: { holder in announced.withLockedValue { $0.append(holder) } }
                ) {
                    Issue.record("entered a held lock")
                }
                Issue.record("no timeout")
            } catch let error as StorageError {
                #expect(error.code == .lockTimeout)
                #expect(error.lockHolder == holder)
                #expect(error.message.contains("process \(holder.processID) (\(holder.processName))"), "\(error.message)")
            }
        }
        // Announced once, naming the holder; and after the release nobody is named.
        #expect(announced.withLockedValue { $0.count } == 1)
        #expect(announced.withLockedValue { $0.first??.processID } == ProcessInfo.processInfo.processIdentifier)
        #expect(FileLock(url: url).holder() == nil)
    }

    @Test func anUnusableLockFileIsATypedError() async throws {
        let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/x.lock")
        await #expect(throws: StorageError.self) { try await FileLock(url: url).withLock {} }
    }
}
