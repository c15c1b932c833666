import ArgumentParser
import Foundation
import OAuthCore
import SecretService

/// Where a profile keeps its secrets (the tokens with their DPoP key, and the client secret):
/// the system's keyring (the macOS Keychain; the Secret Service of a Linux desktop, over D-Bus)
/// or, where none answers, the profile's own `0600` files.
package enum SecretStore: String, Sendable, Encodable, CaseIterable, ExpressibleByArgument {
    case keyring
    case file

    /// How `haapi status` names it.
    package var described: PrintableText {
        switch self {
        case .keyring:
            #if canImport(Security)
                return Texts.line(.secretsKeychain)
            #else
                return Texts.line(.secretsKeyring)
            #endif
        case .file: return Texts.line(.secretsFiles)
        }
    }

    /// The store a new login uses: `HAAPI_SECRET_STORE` (`keyring` or `file`) when set, else the
    /// keyring when one answers here, else files.
    package static func forNewLogin(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> SecretStore {
        guard let asked = environment["HAAPI_SECRET_STORE"], !asked.isEmpty else { return Keyring.problem() == nil ? .keyring : .file }
        guard let store = SecretStore(rawValue: asked) else {
            throw CLIFailure("HAAPI_SECRET_STORE must be keyring or file, not \(PrintableText(asked))")
        }
        return try store.checked(askedBy: "HAAPI_SECRET_STORE")
    }

    /// This store, when it can be used here: the keyring only when it answers.
    /// - Throws: a ``CLIFailure`` naming who asked for the keyring and why it cannot be used.
    package func checked(askedBy source: String) throws -> SecretStore {
        if self == .keyring, let problem = Keyring.problem() {
            throw CLIFailure("\(source) asks for the keyring, which does not answer here: \(PrintableText(problem))")
        }
        return self
    }
}

/// The keyring's items of one profile folder.
package enum Keyring {
    /// The keyring's name, as messages say it.
    package static var name: String {
        #if canImport(Security)
            return "the macOS Keychain"
        #else
            return "the keyring (Secret Service)"
        #endif
    }

    /// The storage of the items belonging to the profile in `directory` (named by its path, so
    /// that two HAAPI_HOMEs never share items).
    package static func storage(for directory: URL) -> any Storage {
        #if canImport(Security)
            return PrefixedKeys(
                base: KeychainStorage(service: "swift-haapi", usesDataProtectionKeychain: false), prefix: directory.path + "/")
        #elseif os(Linux)
            return SecretServiceStorage(
                attributes: ["application": "swift-haapi", "profile": directory.path],
                labelPrefix: "swift-haapi \(directory.lastPathComponent)")
        #else
            return Unavailable()
        #endif
    }

    /// `nil` when the keyring answers here, else why not.
    package static func problem() -> String? {
        #if os(Linux)
            return SecretServiceStorage(attributes: ["application": "swift-haapi"], labelPrefix: "swift-haapi").availability()
        #elseif canImport(Security)
            return nil
        #else
            return "this system has no keyring haapi can use"
        #endif
    }

    /// Keys under a prefix in another storage (the Keychain's account names).
    struct PrefixedKeys: Storage {
        let base: any Storage
        let prefix: String
        func read(key: String) throws -> Data? { try base.read(key: prefix + key) }
        func write(key: String, data: Data) throws { try base.write(key: prefix + key, data: data) }
        func delete(key: String) throws { try base.delete(key: prefix + key) }
    }

    /// A system without a keyring.
    package struct Unavailable: Storage {
        package func read(key: String) throws -> Data? { throw StorageError(.unavailable, "this system has no keyring haapi can use") }
        package func write(key: String, data: Data) throws { throw StorageError(.unavailable, "this system has no keyring haapi can use") }
        package func delete(key: String) throws { throw StorageError(.unavailable, "this system has no keyring haapi can use") }
    }
}

/// A profile's storage when its secrets are in the keyring: the tokens there, and the lock
/// that serialises their refresh across processes in the profile's folder (a keyring has none).
struct KeyringTokenStorage: LockingStorage {
    let files: FileStorage
    let keyring: any Storage

    func read(key: String) throws -> Data? { try keyring.read(key: key) }
    func write(key: String, data: Data) throws { try keyring.write(key: key, data: data) }
    func delete(key: String) throws { try keyring.delete(key: key) }
    func lock(for key: String) throws -> any StorageLock { try files.lock(for: key) }
}

/// Where a login into the keyring keeps the tokens it got: the keyring, or, when the keyring
/// refuses them (locked, and no desktop to ask for its password: SSH, CI), the profile's `0600`
/// file, so that a login the server completed is never lost to the store. ``refusal`` says why
/// the keyring was passed over; the login then says so and saves the profile with files.
package final class LoginTokenStorage: LockingStorage, @unchecked Sendable {
    private let keyring: KeyringTokenStorage
    private let refused = LockedValue<String?>(nil)

    init(_ keyring: KeyringTokenStorage) { self.keyring = keyring }

    /// Why the keyring did not take the tokens; `nil` while it did.
    package var refusal: String? { refused.withLock { $0 } }

    package func read(key: String) throws -> Data? { refusal == nil ? try keyring.read(key: key) : try keyring.files.read(key: key) }

    package func write(key: String, data: Data) throws {
        if refusal == nil {
            do { return try keyring.write(key: key, data: data) } catch {
                refused.withLock { $0 = Profile.describe(error) }
            }
        }
        try keyring.files.write(key: key, data: data)
    }

    package func delete(key: String) throws {
        try? keyring.delete(key: key)
        try keyring.files.delete(key: key)
    }

    package func lock(for key: String) throws -> any StorageLock { try keyring.lock(for: key) }
}
