#if os(Linux)
    import Foundation
    import OAuthCore

    /// A `Storage` in the desktop's keyring (the freedesktop Secret Service: GNOME Keyring,
    /// KWallet, KeePassXC), one secret per key.
    ///
    /// It talks to the Secret Service over the D-Bus session bus itself (its own D-Bus client, `DBusConnection`), so it
    /// needs no library and starts fast; a machine without a keyring still runs, and
    /// ``availability()`` says why it cannot be used there (no D-Bus session, no Secret Service on
    /// it). Each item carries the attributes given at creation, `key`, and the `xdg:schema`
    /// attribute libsecret gives its items, so `secret-tool` and the keyring's manager find them;
    /// its label says what it is.
    ///
    /// Secrets travel in the Secret Service's `plain` session: over the user's own session bus,
    /// unencrypted, as the specification allows for a local bus.
    ///
    /// The keyring has no locks: a `LockingStorage` that needs them pairs this storage with a
    /// `FileStorage`'s lock, as the `haapi` command line does.
    public final class SecretServiceStorage: Storage {
        /// The attributes every item of this storage carries (the `key` attribute is added per item).
        public let attributes: [String: String]
        /// The item labels' start: "`labelPrefix`: `key`".
        public let labelPrefix: String

        /// The schema name in each item's `xdg:schema` attribute.
        static let schema = "io.github.swift-haapi.Secret"

        /// A storage of the items carrying `attributes` (for example the application's name and a
        /// folder the items belong to, so that two installations do not share them).
        public init(attributes: [String: String], labelPrefix: String) {
            self.attributes = attributes
            self.labelPrefix = labelPrefix
        }

        /// Whether a keyring answers here and has a default collection to store in; `nil` when it
        /// does, else why not, as one sentence.
        public func availability() -> String? {
            do {
                let service = try SecretService.open()
                _ = try service.defaultCollection()
                _ = try service.session()
                return nil
            } catch {
                return "\(error)"
            }
        }

        /// The secret of the key's item, or `nil` when the keyring has none.
        /// - Throws: `StorageError` `StorageError.Code.unavailable` when no keyring answers;
        ///   `StorageError.Code.readFailed` when it refuses (a locked keyring the user did not open).
        public func read(key: String) throws -> Data? {
            try perform(.readFailed, "the keyring could not read \"\(key)\"") {
                let service = try SecretService.open()
                guard let item = try service.items(matching: itemAttributes(key)).first else { return nil }
                return try service.secret(of: item)
            }
        }

        /// Stores the secret in the default collection, replacing the key's item in one call.
        /// - Throws: `StorageError` `StorageError.Code.unavailable` when no keyring answers;
        ///   `StorageError.Code.writeFailed` otherwise (the old item kept).
        public func write(key: String, data: Data) throws {
            try perform(.writeFailed, "the keyring could not store \"\(key)\"") {
                let service = try SecretService.open()
                // Replaces the item with the same attributes in one call: a failure leaves the old one.
                try service.store(data, label: "\(labelPrefix): \(key)", attributes: itemAttributes(key), in: service.defaultCollection())
            }
        }

        /// Deletes the key's items; a key without any is not an error.
        /// - Throws: `StorageError` `StorageError.Code.unavailable` when no keyring answers;
        ///   `StorageError.Code.deleteFailed` otherwise.
        public func delete(key: String) throws {
            try perform(.deleteFailed, "the keyring could not delete \"\(key)\"") {
                let service = try SecretService.open()
                for item in try service.items(matching: itemAttributes(key)) { try service.delete(item) }
            }
        }

        private func itemAttributes(_ key: String) -> [String: String] {
            attributes.merging(["key": key, "xdg:schema": Self.schema]) { _, new in new }
        }

        /// `body`, its failures as a `StorageError` of `code` saying `message`.
        private func perform<T>(_ code: StorageError.Code, _ message: String, _ body: () throws -> T) throws -> T {
            do {
                return try body()
            } catch let failure as DBusConnection.Failure {
                throw StorageError(
                    failure.name == nil ? .unavailable : code, "\(message): \(failure.description)", underlying: failure.description)
            } catch let error as DBusFormatError {
                // A value D-Bus cannot carry (larger than 64 MiB).
                throw StorageError(code, "\(message): \(error.description)", underlying: error.description)
            }
        }
    }

    /// The Secret Service API on one connection, in a `plain` session. The session is opened with
    /// the connection and its reply read when first needed, so it shares a round trip with the
    /// first search.
    private final class SecretService {
        let bus: DBusConnection
        private let sessionCall: UInt32
        private var openedSession: String?

        static let name = "org.freedesktop.secrets"
        static let prefix = "org.freedesktop.Secret."

        private init(bus: DBusConnection) throws {
            self.bus = bus
            sessionCall = try bus.send(
                destination: Self.name, path: "/org/freedesktop/secrets", interface: Self.prefix + "Service", member: "OpenSession",
                [.string("plain"), .variant(.string(""))])
        }

        /// A connection to the session bus with a session being opened.
        static func open() throws -> SecretService { try SecretService(bus: DBusConnection.session()) }

        /// The session's object path.
        func session() throws -> String {
            if let openedSession { return openedSession }
            let opened = try answer("OpenSession") { try bus.reply(to: sessionCall, timeout: .seconds(10)) }
            guard opened.count == 2, case .objectPath(let session) = opened[1] else { throw Self.unexpected("OpenSession") }
            openedSession = session
            return session
        }

        /// `call`'s values; the bus's own errors (nobody owns the service's name, it cannot be
        /// started) said as the keyring not answering.
        private func answer(_ member: String, _ call: () throws -> [DBusValue]) throws -> [DBusValue] {
            do {
                return try call()
            } catch let failure as DBusConnection.Failure
                where failure.name.map(Self.missingService.contains) == true
                || failure.name?.hasPrefix("org.freedesktop.DBus.Error.Spawn") == true
            {
                throw DBusConnection.Failure("no Secret Service answers on the D-Bus session (\(failure.description))")
            }
        }

        private static let missingService: Set = [
            "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner", "org.freedesktop.DBus.Error.NoReply",
        ]

        private static func unexpected(_ member: String) -> DBusConnection.Failure {
            DBusConnection.Failure("the Secret Service answered \(member) with values of another shape")
        }

        private func service(_ member: String, _ arguments: [DBusValue]) throws -> [DBusValue] {
            try answer(member) {
                try bus.call(
                    destination: Self.name, path: "/org/freedesktop/secrets", interface: Self.prefix + "Service", member: member, arguments)
            }
        }

        /// The default collection's path; an error when the keyring has none.
        func defaultCollection() throws -> String {
            let answer = try service("ReadAlias", [.string("default")])
            guard let path = answer.first?.text else { throw Self.unexpected("ReadAlias") }
            guard path != "/" else { throw DBusConnection.Failure("the keyring has no default collection to store in") }
            return path
        }

        /// The items with exactly these attributes, unlocked (the keyring may ask the user).
        func items(matching attributes: [String: String]) throws -> [String] {
            let found = try service("SearchItems", [.stringDictionary(attributes)])
            guard found.count == 2, let unlocked = found[0].objectPathList, let locked = found[1].objectPathList else {
                throw Self.unexpected("SearchItems")
            }
            return locked.isEmpty ? unlocked : unlocked + (try unlock(locked))
        }

        /// Unlocks `objects`, prompting the user when the keyring asks to; returns those unlocked.
        private func unlock(_ objects: [String]) throws -> [String] {
            let answer = try service("Unlock", [.objectPaths(objects)])
            guard answer.count == 2, let unlocked = answer[0].objectPathList, case .objectPath(let prompt) = answer[1] else {
                throw Self.unexpected("Unlock")
            }
            guard prompt != "/" else { return unlocked }
            return try self.prompt(prompt).flatMap(\.objectPathList) ?? []
        }

        func secret(of item: String) throws -> Data {
            let answer = try bus.call(
                destination: Self.name, path: item, interface: Self.prefix + "Item", member: "GetSecret", [.objectPath(session())])
            guard case .structure(let fields)? = answer.first, fields.count == 4, case .bytes(let value) = fields[2] else {
                throw Self.unexpected("GetSecret")
            }
            return value
        }

        func store(_ value: Data, label: String, attributes: [String: String], in collection: String) throws {
            _ = try unlock([collection])
            let properties = DBusValue.array(
                elementSignature: "{sv}",
                [
                    .dictionaryEntry(.string(Self.prefix + "Item.Label"), .variant(.string(label))),
                    .dictionaryEntry(.string(Self.prefix + "Item.Attributes"), .variant(.stringDictionary(attributes))),
                ])
            let contentType = String(data: value, encoding: .utf8) == nil ? "application/octet-stream" : "text/plain; charset=utf8"
            let secret = DBusValue.structure([.objectPath(try session()), .bytes(Data()), .bytes(value), .string(contentType)])
            let answer = try bus.call(
                destination: Self.name, path: collection, interface: Self.prefix + "Collection", member: "CreateItem",
                [properties, secret, .boolean(true)])
            guard answer.count == 2, case .objectPath(let prompt) = answer[1] else { throw Self.unexpected("CreateItem") }
            if prompt != "/" { _ = try self.prompt(prompt) }
        }

        func delete(_ item: String) throws {
            let answer = try bus.call(destination: Self.name, path: item, interface: Self.prefix + "Item", member: "Delete")
            guard case .objectPath(let prompt)? = answer.first else { throw Self.unexpected("Delete") }
            if prompt != "/" { _ = try self.prompt(prompt) }
        }

        /// Shows the keyring's prompt (a password dialog) and waits, two minutes at most, for the
        /// user; returns its result, or throws when the user dismissed it.
        private func prompt(_ path: String) throws -> DBusValue? {
            _ = try bus.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "AddMatch",
                [.string("type='signal',interface='\(Self.prefix)Prompt',member='Completed',path='\(path)'")])
            _ = try bus.call(destination: Self.name, path: path, interface: Self.prefix + "Prompt", member: "Prompt", [.string("")])
            let completed = try bus.waitForSignal(timeout: .seconds(120)) { $0.path == path && $0.member == "Completed" }
            guard completed.body.count == 2, case .boolean(let dismissed) = completed.body[0], case .variant(let result) = completed.body[1]
            else {
                throw Self.unexpected("Prompt")
            }
            guard !dismissed else { throw DBusConnection.Failure("the keyring's prompt was dismissed", name: "dismissed") }
            return result
        }
    }
#endif
