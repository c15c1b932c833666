import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens a file the storage keeps itself (a stored value, a lock file) as that file: never
/// through a symbolic link someone planted in its place, and only when it is a plain file, so
/// that what is read, written or truncated is never some other file. One check for
/// ``FileStorage`` and ``FileLock``.
enum PlainFile {
    /// Why a file was not opened.
    enum Refusal: Error {
        /// There is no file of that name.
        case missing
        /// The name is a symbolic link.
        case symbolicLink
        /// The file is not a plain file (a FIFO, a device, a directory), or, when a single link
        /// was asked for, it has other names (a hard link to some other file).
        case notPlain
        /// The system refused to open it, for this reason.
        case failed(String)
    }

    /// A descriptor of the plain file at `path`, opened with `flags` (`O_NOFOLLOW` and
    /// `O_CLOEXEC` are added; `mode` when `flags` create it). With `singleLink`, a file with
    /// more than one name is refused too. The caller closes the descriptor.
    static func descriptor(_ path: String, flags: Int32, mode: mode_t = 0o600, singleLink: Bool = false) throws(Refusal) -> Int32 {
        let descriptor = open(path, flags | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            let failure = errno
            switch failure {
            case ENOENT: throw .missing
            case ELOOP: throw .symbolicLink
            default: throw .failed(String(cString: strerror(failure)))
            }
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, !singleLink || info.st_nlink == 1 else {
            close(descriptor)
            throw .notPlain
        }
        return descriptor
    }
}
