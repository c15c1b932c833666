import Foundation
import OAuthCore
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Item 7 of the second security review (issue 28): the lock file and the storage directory.
@Suite("File storage refuses planted links and folders others control")
struct FileStoragePlantedPathTests {
    func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("haapi-round2-\(UUID().uuidString)")
    }

    /// Item 7: a symbolic link (or a hard link) planted as `.lock-tokens.json` is refused with a
    /// typed error naming it, and the file it points to is left as it was (it was truncated).
    @Test func aPlantedLockFileLinkIsRefusedAndItsTargetLeftUntouched() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try FileStorage(directory: directory)
        let target = directory.appendingPathComponent("other-file")
        try Data("precious".utf8).write(to: target)
        let lockFile = directory.appendingPathComponent(".lock-tokens.json")
        for plant in ["symbolic link", "hard link"] {
            if plant == "symbolic link" {
                try FileManager.default.createSymbolicLink(at: lockFile, withDestinationURL: target)
            } else {
                try FileManager.default.linkItem(at: target, to: lockFile)
            }
            do {
                try await storage.lock(for: "tokens.json").withLock(timeout: 1, whileWaiting: nil) {
                    Issue.record("the lock was taken through a planted \(plant)")
                }
            } catch let error as StorageError {
                #expect(error.code == .unavailable)
                #expect(error.message.contains(lockFile.path) && error.message.contains("remove it"), "\(error.message)")
            }
            #expect(try Data(contentsOf: target) == Data("precious".utf8), "the \(plant)'s target was changed")
            try FileManager.default.removeItem(at: lockFile)
        }
        // Without the plant, the lock works.
        try await storage.lock(for: "tokens.json").withLock(timeout: 1, whileWaiting: nil) {}
    }

    /// Item 7: a storage directory writable by its group or by others, or owned by another user,
    /// is refused (naming the path and the fix); one that cannot be made private is too, rather
    /// than used as it is.
    /// A value's file that is a link or not a plain file is refused on reading: the tokens read
    /// are the file the storage wrote, never a file a link points to, and a FIFO never hangs a read.
    @Test func aPlantedValueLinkOrFIFOIsRefusedOnReading() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try FileStorage(directory: directory)
        let target = directory.appendingPathComponent("other-file")
        try Data("someone else's".utf8).write(to: target)
        let value = directory.appendingPathComponent("tokens.json")
        try FileManager.default.createSymbolicLink(at: value, withDestinationURL: target)
        #expect {
            _ = try storage.read(key: "tokens.json")
        } throws: { error in
            let error = error as? StorageError
            return error?.code == .readFailed && error?.message.contains("symbolic link") == true
                && error?.message.contains(value.path) == true
        }
        try FileManager.default.removeItem(at: value)
        #expect(mkfifo(value.path, 0o600) == 0)
        #expect {
            _ = try storage.read(key: "tokens.json")
        } throws: { error in (error as? StorageError)?.message.contains("not a plain file") == true }
        try FileManager.default.removeItem(at: value)
        // A value the storage wrote reads back, and writing over a planted link replaces the link.
        try FileManager.default.createSymbolicLink(at: value, withDestinationURL: target)
        try storage.write(key: "tokens.json", data: Data("mine".utf8))
        #expect(try storage.read(key: "tokens.json") == Data("mine".utf8))
        #expect(try Data(contentsOf: target) == Data("someone else's".utf8))
    }

    /// A folder above the storage directory that lets someone else swap it is refused: one every
    /// user may write to without the sticky bit, or one another user owns. A sticky one (as
    /// `/tmp`) is fine.
    @Test func aFolderAboveTheStorageThatOthersControlIsRefused() throws {
        let top = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: top) }
        let open = top.appendingPathComponent("open")
        try FileManager.default.createDirectory(at: open, withIntermediateDirectories: true)
        let storage = open.appendingPathComponent("haapi/profiles/default")
        // Set after creation: the umask would clear the bits.
        #expect(chmod(open.path, 0o777) == 0)
        #expect {
            _ = try FileStorage(directory: storage)
        } throws: { error in
            let message = (error as? StorageError)?.message ?? ""
            return message.contains(open.path + ", above the storage directory") && message.contains("without the sticky bit")
        }
        #expect(chmod(open.path, 0o1777) == 0)
        let sticky = try FileStorage(directory: storage)
        try sticky.write(key: "k", data: Data("v".utf8))
        #expect(try sticky.read(key: "k") == Data("v".utf8))

        // A folder another user owns, when this test may make one (as root).
        #expect(chmod(open.path, 0o755) == 0)
        if geteuid() == 0, chown(open.path, 65534, 65534) == 0 {
            #expect {
                _ = try FileStorage(directory: storage)
            } throws: { error in ((error as? StorageError)?.message ?? "").contains("belongs to another user (uid 65534)") }
        }
    }

    /// Finding 6 of the third security review: the folder check above the storage refused
    /// world-writable folders but accepted a group-writable one without the sticky bit, which
    /// the storage folder itself may not be.
    @Test func aGroupWritableFolderAboveTheStorageWithoutTheStickyBitIsRefused() throws {
        let top = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: top) }
        let shared = top.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        let storage = shared.appendingPathComponent("haapi/profiles/default")
        // A group that is not the user's private group: `users` (gid 100), when this test may
        // give the folder to it (as root), else a supplementary group of the user's.
        var groups = [gid_t](repeating: 0, count: 64)
        let count = getgroups(Int32(groups.count), &groups)
        let other = ([100] + groups.prefix(Int(max(count, 0)))).first { $0 != getegid() && chown(shared.path, uid_t.max, $0) == 0 }
        try #require(other != nil, "no group to give the folder to")
        #expect(chmod(shared.path, 0o770) == 0)
        #expect {
            _ = try FileStorage(directory: storage)
        } throws: { error in
            let message = (error as? StorageError)?.message ?? ""
            return message.contains(shared.path + ", above the storage directory") && message.contains("writable by its group")
        }
        #expect(chmod(shared.path, 0o1770) == 0)
        _ = try FileStorage(directory: storage)
        #expect(chmod(shared.path, 0o750) == 0)
        _ = try FileStorage(directory: storage)
    }

    @Test func aStorageDirectoryOthersControlIsRefused() throws {
        for mode in [0o770, 0o707] {
            let directory = temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
            // Set after creation: the umask would clear the group and other bits.
            #expect(chmod(directory.path, mode_t(mode)) == 0)
            do {
                _ = try FileStorage(directory: directory)
                Issue.record("a directory of mode \(String(mode, radix: 8)) was used")
            } catch let error as StorageError {
                #expect(error.code == .unavailable)
                #expect(
                    error.message.contains("writable by other users") && error.message.contains("chmod 700 \(directory.path)"),
                    "\(error.message)")
            }
        }

        // Another user's directory: one made for user 65534 (as root), else the root directory.
        let foreign = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: foreign) }
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let othersPath = geteuid() == 0 && chown(foreign.path, 65534, 65534) == 0 ? foreign.path : "/"
        do {
            _ = try FileStorage(directory: URL(fileURLWithPath: othersPath))
            Issue.record("another user's directory was used")
        } catch let error as StorageError {
            #expect(error.message.contains("belongs to another user"), "\(error.message)")
        }

        // This process's own /proc directory is ours and readable by all, and chmod fails there.
        #if os(Linux)
            do {
                _ = try FileStorage(directory: URL(fileURLWithPath: "/proc/self"))
                Issue.record("a directory that could not be made private was used")
            } catch let error as StorageError {
                #expect(error.message.contains("cannot make the storage directory /proc/self private"), "\(error.message)")
            }
        #endif
    }
}
