import Foundation
import OAuthCore
import Testing

@Suite("Storage")
struct StorageTests {
    func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("haapi-storage-\(UUID().uuidString)")
    }

    func permissions(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func inMemoryRoundTrip() throws {
        let storage = InMemoryStorage()
        #expect(try storage.read(key: "k") == nil)
        try storage.write(key: "k", data: Data("v".utf8))
        #expect(try storage.read(key: "k") == Data("v".utf8))
        try storage.delete(key: "k")
        try storage.delete(key: "k")
        #expect(try storage.read(key: "k") == nil)
    }

    @Test func fileStorageRoundTripsAndPersists() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try FileStorage(directory: directory)
        #expect(try permissions(directory.path) == 0o700)
        #expect(try storage.read(key: "tokens") == nil)
        let value = Data((0..<100_000).map { UInt8($0 % 251) })
        try storage.write(key: "tokens", data: value)
        #expect(try permissions(directory.appendingPathComponent("tokens").path) == 0o600)
        // A new instance on the same directory sees the value.
        #expect(try FileStorage(directory: directory).read(key: "tokens") == value)
        try storage.write(key: "tokens", data: Data("second".utf8))
        #expect(try storage.read(key: "tokens") == Data("second".utf8))
        try storage.write(key: "empty", data: Data())
        #expect(try storage.read(key: "empty") == Data())
        try storage.delete(key: "tokens")
        try storage.delete(key: "never-written")
        #expect(try storage.read(key: "tokens") == nil)
        // No temporary file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["empty"])
    }

    @Test func anyKeyStaysInsideTheDirectory() throws {
        let parent = temporaryDirectory()
        let directory = parent.appendingPathComponent("store")
        defer { try? FileManager.default.removeItem(at: parent) }
        let storage = try FileStorage(directory: directory)
        let keys = [
            "../escape", "a/b", "/etc/passwd", ".hidden", "~tilde", "ünïcode", "with space", "..", ".", String(repeating: "x", count: 300),
        ]
        for (index, key) in keys.enumerated() { try storage.write(key: key, data: Data([UInt8(index)])) }
        for (index, key) in keys.enumerated() { #expect(try storage.read(key: key) == Data([UInt8(index)]), "\(key)") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["store"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == keys.count)
        #expect(throws: StorageError.self) { try storage.write(key: "", data: Data()) }
        #expect(throws: StorageError.self) { try storage.write(key: String(repeating: "y", count: 2000), data: Data()) }
    }

    @Test func failedWriteKeepsTheOldValueAndLeavesNoDebris() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try FileStorage(directory: directory)
        try storage.write(key: "keep", data: Data("old".utf8))
        // A directory where the key's file would go makes the final rename fail.
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("blocked"), withIntermediateDirectories: false)
        do {
            try storage.write(key: "blocked", data: Data("new".utf8))
            Issue.record("writing over a directory succeeded")
        } catch let error as StorageError {
            #expect(error.code == .writeFailed)
        }
        #expect(try storage.read(key: "keep") == Data("old".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["blocked", "keep"])
    }

    @Test func unusableLocationsAreTypedErrors() throws {
        let file = temporaryDirectory()
        FileManager.default.createFile(atPath: file.path, contents: Data())
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            _ = try FileStorage(directory: file)
            Issue.record("a file was accepted as storage directory")
        } catch let error as StorageError {
            #expect(error.code == .unavailable)
        }
        // An existing directory with loose permissions is tightened.
        let loose = temporaryDirectory()
        try FileManager.default.createDirectory(at: loose, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(at: loose) }
        _ = try FileStorage(directory: loose)
        #expect(try permissions(loose.path) == 0o700)
    }

    @Test func concurrentWritersNeverCorruptAValue() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try FileStorage(directory: directory)
        let values = (0..<8).map { Data(repeating: UInt8($0), count: 50_000) }
        await withTaskGroup(of: Void.self) { group in
            for value in values {
                group.addTask { for _ in 0..<20 { try? storage.write(key: "shared", data: value) } }
                group.addTask { for _ in 0..<20 { if let read = try? storage.read(key: "shared") { #expect(values.contains(read)) } } }
            }
        }
        #expect(values.contains(try #require(try storage.read(key: "shared"))))
    }

    @Test func theDebrisOfADeadWriterIsRemovedOnOpen() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try FileStorage(directory: directory)
        try storage.write(key: "tokens", data: Data("kept".utf8))
        let abandoned = directory.appendingPathComponent(".tmp-abandoned").path
        let live = directory.appendingPathComponent(".tmp-live").path
        FileManager.default.createFile(atPath: abandoned, contents: Data("half".utf8))
        FileManager.default.createFile(atPath: live, contents: Data("writing".utf8))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: abandoned)

        let reopened = try FileStorage(directory: directory)
        #expect(!FileManager.default.fileExists(atPath: abandoned))
        #expect(FileManager.default.fileExists(atPath: live), "a write in progress is left alone")
        #expect(try reopened.read(key: "tokens") == Data("kept".utf8))
    }
}

@Suite("XDG base directories")
struct XDGDirectoryTests {
    @Test func anAbsoluteVariableIsUsedAnEmptyOrRelativeOneIgnored() {
        let home = URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true)
        #expect(XDGDirectory.data(environment: ["XDG_DATA_HOME": "/srv/data"]).path == "/srv/data/swift-haapi")
        #expect(XDGDirectory.config(environment: ["XDG_CONFIG_HOME": "/etc/user"]).path == "/etc/user/swift-haapi")
        for ignored in ["", "relative/dir"] {
            #expect(XDGDirectory.data(environment: ["XDG_DATA_HOME": ignored]) == home.appendingPathComponent(".local/share/swift-haapi"))
            #expect(XDGDirectory.config(environment: ["XDG_CONFIG_HOME": ignored]) == home.appendingPathComponent(".config/swift-haapi"))
        }
    }
}
