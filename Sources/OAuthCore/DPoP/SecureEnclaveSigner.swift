#if canImport(CryptoKit) && canImport(Security)
    import CryptoKit
    import Foundation

    /// A P-256 key in the Secure Enclave, as a ``JWSSigner`` for DPoP proofs
    /// (``CryptoKeyType/secureEnclave``). The private key never leaves the enclave.
    struct SecureEnclaveSigner: JWSSigner {
        let key: SecureEnclave.P256.Signing.PrivateKey

        var algorithm: JWSAlgorithm { .es256 }

        var publicJWK: JWK {
            let raw = key.publicKey.rawRepresentation
            return JWK(kty: "EC", crv: "P-256", x: Base64URL.encode(raw.prefix(32)), y: Base64URL.encode(raw.suffix(32)))
        }

        func sign(_ input: Data) throws -> Data { try key.signature(for: input).rawRepresentation }
    }

    extension JWSSigningKey {
        /// The enclave's wrapped form of a Secure Enclave key (only that device's enclave can use it);
        /// `nil` for any other key.
        var secureEnclaveDataRepresentation: Data? {
            guard case .external(let signer as SecureEnclaveSigner) = material else { return nil }
            return signer.key.dataRepresentation
        }

        /// The Secure Enclave key of `dataRepresentation`, written on this device.
        static func secureEnclave(dataRepresentation: Data) throws -> JWSSigningKey {
            do {
                return JWSSigningKey(
                    signer: SecureEnclaveSigner(key: try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: dataRepresentation)))
            } catch {
                throw DPoPError(
                    .keyCreationFailed, "the Secure Enclave cannot use this key (written on another device?)", underlying: error)
            }
        }

        /// A new Secure Enclave key, or a typed error on devices without one.
        static func secureEnclave() throws -> JWSSigningKey {
            guard SecureEnclave.isAvailable else {
                throw DPoPError(.keyCreationFailed, "this device has no Secure Enclave; use CryptoKeyType.p256")
            }
            do {
                return JWSSigningKey(signer: SecureEnclaveSigner(key: try SecureEnclave.P256.Signing.PrivateKey()))
            } catch {
                throw DPoPError(.keyCreationFailed, "the Secure Enclave refused to create a key", underlying: error)
            }
        }
    }
#else
    import Foundation

    extension JWSSigningKey {
        /// No key is a Secure Enclave key outside Apple devices.
        var secureEnclaveDataRepresentation: Data? { nil }

        /// Secure Enclave keys exist on Apple devices only.
        static func secureEnclave(dataRepresentation: Data) throws -> JWSSigningKey {
            throw DPoPError(.keyCreationFailed, "Secure Enclave keys are not available on this platform")
        }

        /// Secure Enclave keys exist on Apple devices only.
        static func secureEnclave() throws -> JWSSigningKey {
            throw DPoPError(.keyCreationFailed, "Secure Enclave keys are not available on this platform; use CryptoKeyType.p256")
        }
    }
#endif
