#if canImport(Security)
    import Foundation
    import Security

    /// A ``Storage`` in the Keychain (Apple platforms), one generic-password item per key.
    ///
    /// A thin adapter: the behaviour it must have is that of ``FileStorage``, which is tested on
    /// every platform; this type only maps the three operations to `SecItem` calls.
    public final class KeychainStorage: Storage {
        /// The `kSecAttrService` of the items.
        public let service: String
        /// The keychain access group to share items with app extensions, if any.
        public let accessGroup: String?

        /// Whether, on macOS, the items are in the iOS-style (data protection) keychain, where access
        /// groups work but a program needs a signed entitlement; `false`: the user's login keychain,
        /// which an unsigned command-line tool can use.
        public let usesDataProtectionKeychain: Bool

        /// Makes a Keychain storage for a service name.
        public init(service: String, accessGroup: String? = nil, usesDataProtectionKeychain: Bool = true) {
            self.service = service
            self.accessGroup = accessGroup
            self.usesDataProtectionKeychain = usesDataProtectionKeychain
        }

        private func query(_ key: String) -> [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: key,
            ]
            if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
            #if os(macOS)
                // The iOS-style keychain, where access groups (app and extension sharing) work on macOS too.
                query[kSecUseDataProtectionKeychain as String] = usesDataProtectionKeychain
            #endif
            return query
        }

        /// The data of the key's item, or `nil` when there is no such item.
        /// - Throws: ``StorageError`` [`StorageError.Code.readFailed`](doc:ErrorCode/readFailed) with the `OSStatus` (a locked device, a
        ///   missing entitlement).
        public func read(key: String) throws -> Data? {
            var query = query(key)
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess else {
                throw StorageError(.readFailed, "Keychain read of \"\(key)\" failed", underlying: "OSStatus \(status)")
            }
            return result as? Data
        }

        /// Replaces the data of the key's item in one step, or adds the item (readable after the first unlock, on
        /// this device only).
        /// - Throws: ``StorageError`` [`StorageError.Code.writeFailed`](doc:ErrorCode/writeFailed) with the `OSStatus`; the old value is
        ///   kept.
        public func write(key: String, data: Data) throws {
            // SecItemUpdate replaces the value in one step, so a failure leaves the old value.
            let attributes: [String: Any] = [kSecValueData as String: data]
            var status = SecItemUpdate(query(key) as CFDictionary, attributes as CFDictionary)
            if status == errSecItemNotFound {
                var item = query(key)
                item[kSecValueData as String] = data
                item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
                status = SecItemAdd(item as CFDictionary, nil)
            }
            guard status == errSecSuccess else {
                throw StorageError(.writeFailed, "Keychain write of \"\(key)\" failed", underlying: "OSStatus \(status)")
            }
        }

        /// Deletes the key's item; a key without one is not an error.
        /// - Throws: ``StorageError`` [`StorageError.Code.deleteFailed`](doc:ErrorCode/deleteFailed) with the `OSStatus`.
        public func delete(key: String) throws {
            let status = SecItemDelete(query(key) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw StorageError(.deleteFailed, "Keychain delete of \"\(key)\" failed", underlying: "OSStatus \(status)")
            }
        }
    }
#endif
