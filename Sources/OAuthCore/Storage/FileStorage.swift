import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A ``Storage`` in a directory: one file per key, the directory `0700`, files `0600`.
///
/// A write goes to a new temporary file that is flushed to disk and then renamed over the
/// old one, so a crash at any moment leaves either the old value or the new one. This is
/// the store for Linux and macOS command-line use; Apple apps use `KeychainStorage`.
///
/// Processes sharing the directory take turns on a key with ``lock(for:)``: a ``FileLock``
/// on `.lock-<file>` next to the value.
public struct FileStorage: LockingStorage {
    /// The directory holding the files.
    public let directory: URL

    /// Opens (and creates, `0700`) a storage directory; one that exists is made `0700` if it is
    /// only readable by others.
    /// - Throws: ``StorageError`` with [`StorageError.Code.unavailable`](doc:ErrorCode/unavailable) when the directory cannot be
    ///   created, is not a directory, belongs to another user, is writable by its group or by
    ///   others (who could plant links or replace files there), or cannot be made private.
    public init(directory: URL) throws {
        self.directory = directory
        let path = directory.path
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            do {
                try FileManager.default.createDirectory(
                    at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw StorageError(.unavailable, "cannot create the storage directory \(path)", underlying: "\(error)")
            }
        } else if !isDirectory.boolValue {
            throw StorageError(.unavailable, "\(path) exists and is not a directory")
        }
        try Self.checkPrivate(path)
        try Self.checkAncestors(path)
        removeAbandonedTemporaryFiles()
    }

    /// Refuses a directory that someone else could swap for one of theirs through a folder above
    /// it: one that other users may write to without the sticky bit (they may rename entries
    /// there): every user, or a group other than the user's own private group (the group named
    /// after the user, with no other member); or one another user owns (an owner may always
    /// rename entries). `/tmp` (sticky, root's) and the user's own folders pass; the path is
    /// checked as it resolves, links followed. The same rule as the storage directory's own.
    private static func checkAncestors(_ path: String) throws {
        guard let resolved = realpath(path, nil) else {
            throw StorageError(.unavailable, "cannot check the folders above the storage directory \(path)", underlying: errnoText())
        }
        var ancestor = URL(fileURLWithPath: String(cString: resolved))
        free(resolved)
        while ancestor.path != "/" {
            ancestor.deleteLastPathComponent()
            var info = stat()
            guard stat(ancestor.path, &info) == 0 else {
                throw StorageError(
                    .unavailable, "cannot check \(ancestor.path), above the storage directory \(path)", underlying: errnoText())
            }
            if info.st_uid != geteuid() && info.st_uid != 0 {
                throw StorageError(
                    .unavailable,
                    "\(ancestor.path), above the storage directory \(path), belongs to another user (uid \(info.st_uid)), "
                        + "who could put another directory in its place: use a directory of your own")
            }
            guard info.st_mode & mode_t(S_ISVTX) == 0 else { continue }
            if info.st_mode & 0o002 != 0 {
                throw StorageError(
                    .unavailable,
                    "\(ancestor.path), above the storage directory \(path), is writable by every user without the sticky bit, "
                        + "so anyone could put another directory in its place: `chmod o-w \(ancestor.path)` or use another directory")
            }
            if info.st_mode & 0o020 != 0 && !isOwnPrivateGroup(info.st_gid) {
                throw StorageError(
                    .unavailable,
                    "\(ancestor.path), above the storage directory \(path), is writable by its group (gid \(info.st_gid)) without the sticky bit, "
                        + "so the group's members could put another directory in its place: `chmod g-w \(ancestor.path)` or use another directory"
                )
            }
        }
    }

    /// Whether `gid` is the user's private group: named as the user is, with no other member
    /// (the group every account gets on Debian and most Linux systems, which a umask of 002
    /// makes folders writable by).
    private static func isOwnPrivateGroup(_ gid: gid_t) -> Bool {
        guard gid == getegid(), let group = getgrgid(gid), let user = getpwuid(geteuid()) else { return false }
        guard String(cString: group.pointee.gr_name) == String(cString: user.pointee.pw_name) else { return false }
        // No member listed beyond the user (members by primary group are not listed at all).
        var member = group.pointee.gr_mem
        while let name = member?.pointee {
            if String(cString: name) != String(cString: user.pointee.pw_name) { return false }
            member = member?.advanced(by: 1)
        }
        return true
    }

    /// Refuses a directory that another user owns or may write to, and tightens one that others
    /// may only read: the tokens and keys stored there must be this user's alone.
    private static func checkPrivate(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw StorageError(.unavailable, "cannot check the storage directory \(path)", underlying: errnoText())
        }
        guard info.st_uid == geteuid() else {
            throw StorageError(
                .unavailable, "the storage directory \(path) belongs to another user (uid \(info.st_uid)): use a directory of your own")
        }
        guard info.st_mode & mode_t(0o022) == 0 else {
            throw StorageError(
                .unavailable,
                "the storage directory \(path) is writable by other users, who could plant links or replace files in it: "
                    + "check what it holds, then `chmod 700 \(path)`")
        }
        guard info.st_mode & mode_t(0o077) != 0 else { return }
        guard chmod(path, 0o700) == 0 else {
            throw StorageError(.unavailable, "cannot make the storage directory \(path) private (chmod 700)", underlying: errnoText())
        }
    }

    /// Temporary files older than this are the debris of a writer that died between creating
    /// its file and renaming it (a live write takes milliseconds).
    static let abandonedAfter: TimeInterval = 600

    /// Removes the temporary files of writers that died half way (killed, power lost): the
    /// values they were writing never counted, and nothing else would ever remove them.
    private func removeAbandonedTemporaryFiles() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let cutoff = Date().addingTimeInterval(-Self.abandonedAfter)
        for name in names where name.hasPrefix(".tmp-") {
            let path = directory.appendingPathComponent(name).path
            guard let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                modified < cutoff
            else { continue }
            unlink(path)
        }
    }

    /// - Throws: ``StorageError`` [`StorageError.Code.readFailed`](doc:ErrorCode/readFailed) also when the value's file is
    ///   a symbolic link or not a plain file (a FIFO would block the read forever): what is read
    ///   as tokens or a key must be the file this storage wrote, never one a link points to.
    public func read(key: String) throws -> Data? {
        let path = try filePath(for: key)
        let descriptor: Int32
        do {
            // O_NONBLOCK: opening a FIFO does not wait for a writer; it is refused as not plain.
            descriptor = try PlainFile.descriptor(path, flags: O_RDONLY | O_NONBLOCK)
        } catch {
            switch error {
            case .missing: return nil
            case .symbolicLink:
                throw StorageError(
                    .readFailed, "the value of \"\(key)\" is a symbolic link, which this storage never writes: remove it (\(path))")
            case .notPlain: throw StorageError(.readFailed, "the value of \"\(key)\" is not a plain file: remove it (\(path))")
            case .failed(let reason): throw StorageError(.readFailed, "cannot read the value of \"\(key)\"", underlying: reason)
            }
        }
        defer { close(descriptor) }
        do { return try OutsideFile.readAll(descriptor, path, limit: Self.valueLimit) } catch let refusal as OutsideFile.Refusal {
            throw StorageError(.readFailed, "cannot read the value of \"\(key)\"", underlying: refusal.reason)
        }
    }

    /// The largest value read back (a session with its tokens is a few kilobytes): a file grown
    /// past it is refused, not read into memory.
    static let valueLimit = 16 << 20

    /// Writes `data` to a new temporary file (`0600`), flushes it to disk, then renames it over the key's
    /// file: a crash leaves the old value or the new one.
    /// - Throws: ``StorageError`` [`StorageError.Code.writeFailed`](doc:ErrorCode/writeFailed) (the old value kept) or
    ///   [`StorageError.Code.invalidKey`](doc:ErrorCode/invalidKey-8rilk).
    public func write(key: String, data: Data) throws {
        let path = try filePath(for: key)
        let temporary = directory.appendingPathComponent(".tmp-\(UUID().uuidString)").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StorageError(.writeFailed, "cannot write the value of \"\(key)\"", underlying: Self.errnoText())
        }
        var failure: String?
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = cWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = Self.errnoText()
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = Self.errnoText() }
        close(descriptor)
        if failure == nil, rename(temporary, path) != 0 { failure = Self.errnoText() }
        if let failure {
            unlink(temporary)
            throw StorageError(.writeFailed, "cannot write the value of \"\(key)\"; the old value is kept", underlying: failure)
        }
        syncDirectory()
    }

    /// Removes the key's file; a key without one is not an error.
    /// - Throws: ``StorageError`` [`StorageError.Code.deleteFailed`](doc:ErrorCode/deleteFailed) or [`StorageError.Code.invalidKey`](doc:ErrorCode/invalidKey-8rilk).
    public func delete(key: String) throws {
        let path = try filePath(for: key)
        if unlink(path) != 0, errno != ENOENT {
            throw StorageError(.deleteFailed, "cannot delete \"\(key)\"", underlying: Self.errnoText())
        }
        syncDirectory()
    }

    /// The lock of `key`'s read-modify-write cycles: `.lock-<file name>` in the directory.
    /// - Throws: ``StorageError`` [`StorageError.Code.invalidKey`](doc:ErrorCode/invalidKey-8rilk) for a key that cannot be stored.
    public func lock(for key: String) throws -> any StorageLock {
        let file = URL(fileURLWithPath: try filePath(for: key))
        return FileLock(url: directory.appendingPathComponent(".lock-" + file.lastPathComponent))
    }

    /// The file of a key. Plain keys keep their name; any other key is stored under `~` and
    /// the base64url SHA-256 of its UTF-8 bytes (a fixed 44 characters), so no key can escape
    /// the directory, exceed a file name's length, or clash with a temporary file (those start with a dot).
    func filePath(for key: String) throws -> String {
        guard !key.isEmpty, key.utf8.count <= 1024 else {
            throw StorageError(.invalidKey, "a storage key must have 1 to 1024 bytes")
        }
        let plain =
            key.utf8.count <= 200 && key.first != "." && key.first != "~"
            && key.utf8.allSatisfy(Self.isPlainNameByte)
        let name = plain ? key : "~" + Base64URL.encode(SHA256.hash(data: Data(key.utf8)))
        return directory.appendingPathComponent(name).path
    }

    /// Whether `byte` may stand in a plain file name as is: an ASCII letter or digit, `.`, `_` or
    /// `-`. By ranges: CharacterSet's tables are a megabyte of memory for a few bytes checked.
    package static func isPlainNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// Makes a rename durable: fsync of the directory that holds the entry.
    private func syncDirectory() {
        let descriptor = open(directory.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}

// `write` is also a method of FileStorage; this name reaches the C function.
#if canImport(Glibc)
    private let cWrite = Glibc.write
#elseif canImport(Musl)
    private let cWrite = Musl.write
#elseif canImport(Darwin)
    private let cWrite = Darwin.write
#endif
