#if canImport(Security)
    import Foundation
    import Security

    // RSA on Apple platforms goes through the Security framework (SecKey.h of the iOS 17 SDK):
    // SecKeyCreateWithData takes and SecKeyCopyExternalRepresentation gives PKCS #1 DER for RSA keys,
    // and the `...Message...SHA256` algorithms hash the message themselves; the PSS one uses MGF1
    // with SHA-256 and a 32-byte salt, as PS256 requires (RFC 7518 §3.5).

    /// An RSA public key, on the Security framework.
    ///
    /// `@unchecked Sendable`: a `SecKey` is immutable once made, and Security's key operations may
    /// be called from any thread.
    struct RSAPublicKey: @unchecked Sendable {
        let key: SecKey

        /// A public key the app made or found itself (for example in the keychain).
        init(_ key: SecKey) throws { self.key = try requireRSA(key, for: .verify, "the SecKey is not an RSA public key") }

        init(pkcs1DER der: Data) throws {
            key = try RSAKeyEncoding.importing(der, isPrivate: false) { try makeKey($0, keyClass: kSecAttrKeyClassPublic) }
        }

        private init(unchecked key: SecKey) { self.key = key }

        /// The public key of `privateKey`, if Security can give it.
        static func of(_ privateKey: SecKey) -> RSAPublicKey? { SecKeyCopyPublicKey(privateKey).map(RSAPublicKey.init(unchecked:)) }

        var components: RSAKeyEncoding.PublicComponents? {
            guard let der = SecKeyCopyExternalRepresentation(key, nil) as Data? else { return nil }
            return try? RSAKeyEncoding.publicComponents(fromPublicKeyDER: der)
        }

        func isValidSignature(_ signature: Data, for message: some DataProtocol, padding: RSASignaturePadding) -> Bool {
            SecKeyVerifySignature(key, padding.algorithm, Data(message) as CFData, signature as CFData, nil)
        }
    }

    /// An RSA private key, on the Security framework.
    ///
    /// `@unchecked Sendable`: as ``RSAPublicKey``.
    struct RSAPrivateKey: @unchecked Sendable {
        let key: SecKey

        /// A private key the app made or found itself (for example in the keychain).
        init(_ key: SecKey) throws { self.key = try requireRSA(key, for: .sign, "the SecKey is not an RSA private key") }

        /// Security does not check an imported key's members against each other as BoringSSL does,
        /// so the key must sign something its own public key verifies before it is used.
        init(pkcs1DER der: Data) throws {
            key = try RSAKeyEncoding.importing(der, isPrivate: true) { try makeKey($0, keyClass: kSecAttrKeyClassPrivate) }
            let probe = Data("swift-haapi RSA key consistency".utf8)
            guard let publicKey, let signature = try? signature(for: probe, padding: .pkcs1v15),
                publicKey.isValidSignature(signature, for: probe, padding: .pkcs1v15)
            else {
                throw RSAKeyEncoding.invalid("the RSA private key's members do not belong together")
            }
        }

        var publicKey: RSAPublicKey? { RSAPublicKey.of(key) }

        func signature(for message: some DataProtocol, padding: RSASignaturePadding) throws -> Data {
            var error: Unmanaged<CFError>?
            guard let signature = SecKeyCreateSignature(key, padding.algorithm, Data(message) as CFData, &error) as Data? else {
                throw error.map { $0.takeRetainedValue() as Error }
                    ?? JOSEError(.signingFailed, "the Security framework gave no signature and no reason")
            }
            return signature
        }
    }

    extension RSASignaturePadding {
        fileprivate var algorithm: SecKeyAlgorithm {
            switch self {
            case .pkcs1v15: return .rsaSignatureMessagePKCS1v15SHA256
            case .pss: return .rsaSignatureMessagePSSSHA256
            }
        }
    }

    /// `key`, if it is an RSA key that can do `operation` with RS256.
    private func requireRSA(_ key: SecKey, for operation: SecKeyOperationType, _ refusal: String) throws -> SecKey {
        let attributes = SecKeyCopyAttributes(key) as? [CFString: Any]
        guard (attributes?[kSecAttrKeyType] as? String) == (kSecAttrKeyTypeRSA as String),
            SecKeyIsAlgorithmSupported(key, operation, RSASignaturePadding.pkcs1v15.algorithm)
        else { throw RSAKeyEncoding.invalid(refusal) }
        return key
    }

    private func makeKey(_ der: Data, keyClass: CFString) throws -> SecKey {
        let attributes: [CFString: Any] = [kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeyClass: keyClass]
        var error: Unmanaged<CFError>?
        guard let key = SecKeyCreateWithData(der as CFData, attributes as CFDictionary, &error) else {
            let reason = error.map { $0.takeRetainedValue().localizedDescription } ?? "no reason given"
            throw RSAKeyEncoding.invalid("the Security framework refused the RSA key: \(reason)")
        }
        return key
    }

    extension JWSSigningKey {
        /// An RSA private key of the Security framework (one the app keeps in the keychain, for
        /// example), for RS256 or PS256.
        /// - Throws: ``JOSEError`` when `key` is not an RSA private key or `algorithm` not an RSA algorithm.
        public static func rsa(_ key: SecKey, algorithm: JWSAlgorithm = .rs256, keyID: String? = nil) throws -> JWSSigningKey {
            try rsa(try RSAPrivateKey(key), algorithm: algorithm, keyID: keyID)
        }
    }

    extension JWSVerificationKey {
        /// An RSA public key of the Security framework (RS256, PS256).
        /// - Throws: ``JOSEError`` when `key` is not an RSA public key.
        public init(_ key: SecKey, keyID: String? = nil) throws {
            self.init(.rsa(try RSAPublicKey(key)), keyID: keyID)
        }
    }

    extension JWSSigningKey {
        /// The private key as a Security framework key, as Curity's SDK holds one: an RSA key is one
        /// already; an elliptic-curve key is imported from its X9.63 form. `nil` for other keys.
        public var secKey: SecKey? {
            if case .rsa(let key) = material { return key.key }
            guard let x963 = x963PrivateRepresentation else { return nil }
            let attributes = [kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass: kSecAttrKeyClassPrivate] as CFDictionary
            return SecKeyCreateWithData(x963 as CFData, attributes, nil)
        }
    }
#endif
