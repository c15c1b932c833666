import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one way to read a file someone else named: an argument (`--theme`, `--cacert`,
/// `--client-secret-file`, `--answers`), a configuration, or a name inside a folder given to
/// us (an asset catalog's `Contents.json` naming `../../secret.png`, a captured folder's files).
///
/// - A file named directly is read if it is a regular file or a pipe (`<(…)`, `/dev/fd/N`),
///   never a directory or a device, and only up to a limit: a larger one is refused, not
///   read into memory.
/// - A file named inside a folder is read only if, with every link resolved, it is still
///   inside that folder (resolved too): a link or a `../` out of it is refused.
package enum OutsideFile {
    /// Why a file was not read, in words for the user.
    package struct Refusal: Error, CustomStringConvertible, Sendable, Equatable {
        /// The file, as it was named.
        package let path: String
        /// Why it was not read (`it is larger than 1 MiB`, `No such file or directory`).
        package let reason: String
        /// `cannot read PATH: REASON`.
        package var description: String { "cannot read \(path): \(reason)" }
        init(_ path: String, _ reason: String) {
            self.path = path
            self.reason = reason
        }
        init(_ path: String, errno number: Int32) { self.init(path, String(cString: strerror(number))) }
    }

    /// The file at `path`, at most `limit` bytes.
    /// - Throws: ``Refusal`` when it cannot be opened, is neither a regular file nor a pipe, or
    ///   holds more than `limit` bytes.
    package static func read(_ path: String, limit: Int) throws -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw Refusal(path, errno: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Refusal(path, errno: errno) }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG || kind == S_IFIFO else {
            throw Refusal(path, "it is \(kind == S_IFDIR ? "a folder" : "not a file")")
        }
        if kind == S_IFREG, status.st_size > limit { throw tooLarge(path, limit) }
        return try readAll(descriptor, path, limit: limit)
    }

    /// Standard input (`-` for a file), at most `limit` bytes.
    /// - Throws: ``Refusal`` when it cannot be read or holds more than `limit` bytes.
    package static func readStandardInput(limit: Int) throws -> Data {
        try readAll(STDIN_FILENO, "standard input", limit: limit)
    }

    /// Reads `descriptor` (named `path` in errors) to its end, refusing more than `limit` bytes
    /// as they arrive.
    package static func readAll(_ descriptor: Int32, _ path: String, limit: Int) throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Refusal(path, errno: errno)
            }
            if count == 0 { return data }
            guard data.count + count <= limit else { throw tooLarge(path, limit) }
            data.append(contentsOf: buffer[..<count])
        }
    }

    /// The file `name` inside `folder` (a name from a file in it, which may hold `/`), at most
    /// `limit` bytes.
    /// - Throws: ``Refusal`` when, its links resolved, it is not inside `folder`, or as
    ///   ``read(_:limit:)``.
    package static func read(_ name: String, in folder: URL, limit: Int) throws -> Data {
        try read(try resolve(name, in: folder), limit: limit)
    }

    /// The path of `name` inside `folder`, every link resolved.
    /// - Throws: ``Refusal`` when that path is not inside `folder` (resolved), or does not exist.
    package static func resolve(_ name: String, in folder: URL) throws -> String {
        guard let root = realPath(folder.path) else { throw Refusal(folder.path, errno: errno) }
        let joined = name.hasPrefix("/") ? name : folder.path + "/" + name
        guard let resolved = realPath(joined) else { throw Refusal(joined, errno: errno) }
        guard resolved.hasPrefix(root == "/" ? "/" : root + "/") else {
            throw Refusal(joined, "it leads out of \(folder.path) (to \(resolved)); only files inside it are read")
        }
        return resolved
    }

    #if canImport(Glibc)
        private static let systemRead = Glibc.read
    #else
        private static let systemRead = Darwin.read
    #endif

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func tooLarge(_ path: String, _ limit: Int) -> Refusal {
        Refusal(path, "it is larger than \(limit >= 1 << 20 ? "\(limit >> 20) MiB" : "\(limit >> 10) KiB")")
    }
}
