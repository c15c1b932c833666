#if os(Linux)
import Foundation
import Glibc

/// A ``Storage`` in the desktop's keyring (the freedesktop Secret Service: GNOME Keyring,
/// KWallet, KeePassXC), one secret per key, through libsecret.
///
/// libsecret is loaded when the storage is first used, not linked: a program built with this
/// package starts on a machine without it, and ``availability()`` says why it cannot be used
/// there (no libsecret, no D-Bus session, no keyring answering). Each item carries the
/// attributes given at creation and `key`; its label says what it is in the keyring's
/// manager. Values are text (UTF-8), as the package's stored records are.
///
/// The keyring has no locks: a ``LockingStorage`` that needs them pairs this storage with a
/// ``FileStorage``'s lock, as the `haapi` command line does.
public final class SecretServiceStorage: Storage {
    /// The attributes every item of this storage carries (the `key` attribute is added per item).
    public let attributes: [String: String]
    /// The item labels' start: "`labelPrefix`: `key`".
    public let labelPrefix: String

    /// libsecret's description of the items: their attribute names (libsecret refuses others).
    private let schema: SecretSchema

    /// A storage of the items carrying `attributes` (for example the application's name and a
    /// folder the items belong to, so that two installations do not share them).
    public init(attributes: [String: String], labelPrefix: String) {
        self.attributes = attributes
        self.labelPrefix = labelPrefix
        schema = SecretSchema(attributeNames: attributes.keys.sorted() + ["key"])
    }

    /// Whether a keyring answers here; `nil` when one does, else why not (libsecret missing,
    /// no D-Bus session, no Secret Service on it), as one sentence.
    public func availability() -> String? {
        do {
            _ = try read(key: ".availability-probe")
            return nil
        } catch let error as StorageError {
            return (error.cause as? StorageError.Failure).map { $0.underlying ?? $0.message } ?? "\(error)"
        } catch {
            return "\(error)"
        }
    }

    public func read(key: String) throws -> Data? {
        let library = try SecretLibrary.loaded(for: .readFailed)
        return try library.withAttributes(attributes.merging(["key": key]) { _, new in new }) { table, errorOut in
            guard let value = library.lookup(schema.pointer, table, nil, errorOut) else {
                if let message = library.takeError(errorOut) {
                    throw StorageError(.readFailed, "the keyring could not read \"\(key)\"", underlying: message)
                }
                return nil
            }
            defer { library.free(value) }
            return Data(bytes: value, count: strlen(value))
        }
    }

    public func write(key: String, data: Data) throws {
        guard let text = String(data: data, encoding: .utf8), !text.utf8.contains(0) else {
            throw StorageError(.writeFailed, "the keyring keeps text: the value of \"\(key)\" is not UTF-8")
        }
        let library = try SecretLibrary.loaded(for: .writeFailed)
        try library.withAttributes(attributes.merging(["key": key]) { _, new in new }) { table, errorOut in
            // Replaces the item with the same attributes in one call: a failure leaves the old one.
            let stored = library.store(schema.pointer, table, nil, "\(labelPrefix): \(key)", text, nil, errorOut)
            if let message = library.takeError(errorOut) ?? (stored == 0 ? "the keyring refused to store it" : nil) {
                throw StorageError(.writeFailed, "the keyring could not store \"\(key)\"", underlying: message)
            }
        }
    }

    public func delete(key: String) throws {
        let library = try SecretLibrary.loaded(for: .deleteFailed)
        try library.withAttributes(attributes.merging(["key": key]) { _, new in new }) { table, errorOut in
            _ = library.clear(schema.pointer, table, nil, errorOut)
            if let message = library.takeError(errorOut) {
                throw StorageError(.deleteFailed, "the keyring could not delete \"\(key)\"", underlying: message)
            }
        }
    }
}

/// libsecret's password functions and the GLib ones they need, loaded once per process.
private final class SecretLibrary: @unchecked Sendable {
    // The `v` functions take the attributes as a GHashTable of strings, not as C varargs.
    typealias Lookup = @convention(c) (UnsafeRawPointer?, OpaquePointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> UnsafeMutablePointer<CChar>?
    typealias Store = @convention(c) (
        UnsafeRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, OpaquePointer?,
        UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    ) -> Int32
    typealias Clear = @convention(c) (UnsafeRawPointer?, OpaquePointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> Int32
    typealias Free = @convention(c) (UnsafeMutablePointer<CChar>?) -> Void
    typealias HashTableNew = @convention(c) (UnsafeRawPointer?, UnsafeRawPointer?) -> OpaquePointer?
    typealias HashTableInsert = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32
    typealias HashTableUnref = @convention(c) (OpaquePointer?) -> Void
    typealias ErrorFree = @convention(c) (UnsafeMutableRawPointer?) -> Void

    let lookup: Lookup
    let store: Store
    let clear: Clear
    let free: Free
    let hashTableNew: HashTableNew
    let hashTableInsert: HashTableInsert
    let hashTableUnref: HashTableUnref
    let errorFree: ErrorFree
    let stringHash: UnsafeRawPointer
    let stringEqual: UnsafeRawPointer

    /// The process's library, or why it cannot be loaded.
    private static let shared: Result<SecretLibrary, StorageError.Failure> = {
        guard let handle = dlopen("libsecret-1.so.0", RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            return .failure(StorageError.Failure(.unavailable, "libsecret is not installed", underlying: "libsecret is not installed (\(reason))"))
        }
        func symbol<T>(_ name: String, as type: T.Type) -> T? { dlsym(handle, name).map { unsafeBitCast($0, to: type) } }
        guard let lookup = symbol("secret_password_lookupv_sync", as: Lookup.self),
            let store = symbol("secret_password_storev_sync", as: Store.self),
            let clear = symbol("secret_password_clearv_sync", as: Clear.self),
            let free = symbol("secret_password_free", as: Free.self),
            let hashTableNew = symbol("g_hash_table_new", as: HashTableNew.self),
            let hashTableInsert = symbol("g_hash_table_insert", as: HashTableInsert.self),
            let hashTableUnref = symbol("g_hash_table_unref", as: HashTableUnref.self),
            let errorFree = symbol("g_error_free", as: ErrorFree.self),
            let stringHash = dlsym(handle, "g_str_hash"), let stringEqual = dlsym(handle, "g_str_equal")
        else {
            return .failure(StorageError.Failure(
                .unavailable, "libsecret is too old", underlying: "libsecret lacks the functions this storage calls (0.18 and later have them)"))
        }
        return .success(SecretLibrary(
            lookup: lookup, store: store, clear: clear, free: free, hashTableNew: hashTableNew, hashTableInsert: hashTableInsert,
            hashTableUnref: hashTableUnref, errorFree: errorFree, stringHash: UnsafeRawPointer(stringHash),
            stringEqual: UnsafeRawPointer(stringEqual)))
    }()

    private init(
        lookup: Lookup, store: Store, clear: Clear, free: Free, hashTableNew: HashTableNew, hashTableInsert: HashTableInsert,
        hashTableUnref: HashTableUnref, errorFree: ErrorFree, stringHash: UnsafeRawPointer, stringEqual: UnsafeRawPointer
    ) {
        self.lookup = lookup
        self.store = store
        self.clear = clear
        self.free = free
        self.hashTableNew = hashTableNew
        self.hashTableInsert = hashTableInsert
        self.hashTableUnref = hashTableUnref
        self.errorFree = errorFree
        self.stringHash = stringHash
        self.stringEqual = stringEqual
    }

    /// The library, or a ``StorageError`` of `code` saying why it cannot be loaded.
    static func loaded(for code: StorageError.Code) throws -> SecretLibrary {
        switch shared {
        case .success(let library): return library
        case .failure(let failure): throw StorageError(code, failure.message, underlying: failure.underlying)
        }
    }

    /// Runs `body` with a GHashTable of `attributes` and an empty GError slot.
    func withAttributes<T>(
        _ attributes: [String: String], _ body: (OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>) throws -> T
    ) throws -> T {
        let table = hashTableNew(stringHash, stringEqual)
        var copies: [UnsafeMutablePointer<CChar>] = []
        defer {
            hashTableUnref(table)
            copies.forEach { Glibc.free($0) }
        }
        for (name, value) in attributes {
            guard let name = strdup(name), let value = strdup(value) else { throw StorageError(.unavailable, "out of memory") }
            copies += [name, value]
            _ = hashTableInsert(table, UnsafeMutableRawPointer(name), UnsafeMutableRawPointer(value))
        }
        var error: UnsafeMutableRawPointer?
        return try body(table, &error)
    }

    /// The message of the GError in `slot` (freed), or `nil` when none was set.
    func takeError(_ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> String? {
        guard let error = slot.pointee else { return nil }
        defer {
            errorFree(error)
            slot.pointee = nil
        }
        // struct GError { GQuark domain; gint code; gchar *message; }
        let message = error.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self)
        return message.map { String(cString: $0) } ?? "an unknown keyring error"
    }

}

/// A libsecret `SecretSchema`, laid out by hand (the headers are not needed to build): its name,
/// its flags, 32 pairs of attribute name and type, then reserved words.
private final class SecretSchema: @unchecked Sendable {
    let pointer: UnsafeRawPointer
    private let strings: [UnsafeMutablePointer<CChar>]

    /// A schema named for this package whose attributes are `attributeNames`, all strings.
    init(attributeNames: [String]) {
        let word = MemoryLayout<UnsafeRawPointer>.size
        // const gchar *name; SecretSchemaFlags flags; { const gchar *name; SecretSchemaAttributeType type; } [32]; gint reserved; gpointer reserved1..7
        let size = word * 2 + word * 2 * 32 + word * 8
        let schema = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: word)
        schema.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        var strings = [strdup("io.github.swift-haapi.Secret")!]
        schema.storeBytes(of: UnsafePointer(strings[0]), as: UnsafePointer<CChar>?.self)
        // flags (SECRET_SCHEMA_NONE) and every attribute's type (SECRET_SCHEMA_ATTRIBUTE_STRING) are 0.
        for (index, name) in attributeNames.prefix(32).enumerated() {
            let copy = strdup(name)!
            strings.append(copy)
            schema.storeBytes(of: UnsafePointer(copy), toByteOffset: word * 2 + word * 2 * index, as: UnsafePointer<CChar>?.self)
        }
        pointer = UnsafeRawPointer(schema)
        self.strings = strings
    }

    deinit {
        strings.forEach { Glibc.free($0) }
        UnsafeMutableRawPointer(mutating: pointer).deallocate()
    }
}
#endif
