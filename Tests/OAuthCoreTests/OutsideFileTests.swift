import Foundation
import Testing

@testable import OAuthCore

#if canImport(Glibc)
    import Glibc
#endif

/// The one reader of files others name (review 4: asset catalogs embedded files from outside
/// them): a regular file or a pipe, bounded before it is read in, and inside its folder with
/// every link resolved.
@Suite("OutsideFile")
struct OutsideFileTests {
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outside-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("inside/sub"), withIntermediateDirectories: true)
        return folder
    }

    @Test func aFileInsideItsFolderIsRead() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inside = folder.appendingPathComponent("inside")
        try Data("one".utf8).write(to: inside.appendingPathComponent("sub/a.json"))
        #expect(try OutsideFile.read("sub/a.json", in: inside, limit: 10) == Data("one".utf8))
        // A link that stays inside is followed.
        try FileManager.default.createSymbolicLink(atPath: inside.appendingPathComponent("b.json").path, withDestinationPath: "sub/a.json")
        #expect(try OutsideFile.read("b.json", in: inside, limit: 10) == Data("one".utf8))
        #expect(try OutsideFile.read(inside.appendingPathComponent("sub/a.json").path, in: inside, limit: 10) == Data("one".utf8))
    }

    @Test(arguments: ["../secret", "sub/../../secret", "link", "/etc/passwd"])
    func whatLeadsOutOfItsFolderIsRefused(_ name: String) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inside = folder.appendingPathComponent("inside")
        try Data("secret".utf8).write(to: folder.appendingPathComponent("secret"))
        try FileManager.default.createSymbolicLink(atPath: inside.appendingPathComponent("link").path, withDestinationPath: "../secret")
        #expect {
            try OutsideFile.read(name, in: inside, limit: 100)
        } throws: { error in
            (error as? OutsideFile.Refusal)?.reason.contains("leads out of") == true
        }
    }

    /// The size is checked before the bytes are read in: a 4 GiB (sparse) file is refused at once.
    @Test func aFileLargerThanItsLimitIsRefusedUnread() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let huge = folder.appendingPathComponent("huge")
        #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
        #expect(truncate(huge.path, 4 << 30) == 0)
        #expect(throws: OutsideFile.Refusal(huge.path, "it is larger than 1 MiB")) { try OutsideFile.read(huge.path, limit: 1 << 20) }
        #expect(throws: OutsideFile.Refusal(folder.path, "it is a folder")) { try OutsideFile.read(folder.path, limit: 1 << 20) }
        #expect(throws: OutsideFile.Refusal("/dev/zero", "it is not a file")) { try OutsideFile.read("/dev/zero", limit: 1 << 20) }
    }

    /// A pipe (`<(…)`, `/dev/fd/N`) is read as a file, and bounded as it arrives.
    @Test func aPipeIsReadAndBoundedAsItArrives() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        func feed(_ bytes: Int) {
            Thread {
                let handle = FileHandle(forWritingAtPath: fifo)
                handle?.write(Data(repeating: 0x61, count: bytes))
                try? handle?.close()
            }.start()
        }
        feed(5)
        #expect(try OutsideFile.read(fifo, limit: 10) == Data("aaaaa".utf8))
        // One write of at most PIPE_BUF bytes: the writer is done before the reader gives up.
        feed(4000)
        #expect(throws: OutsideFile.Refusal(fifo, "it is larger than 1 KiB")) { try OutsideFile.read(fifo, limit: 1 << 10) }
    }
}
