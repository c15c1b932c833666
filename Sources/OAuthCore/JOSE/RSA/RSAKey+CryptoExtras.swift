#if !canImport(Security)
    import Crypto
    import CryptoExtras
    import Foundation

    /// An RSA public key, on swift-crypto's `_RSA` (BoringSSL).
    struct RSAPublicKey: Sendable {
        let key: _RSA.Signing.PublicKey

        init(_ key: _RSA.Signing.PublicKey) { self.key = key }

        init(pkcs1DER der: Data) throws {
            key = try RSAKeyEncoding.importing(der, isPrivate: false) { try _RSA.Signing.PublicKey(derRepresentation: $0) }
        }

        var components: RSAKeyEncoding.PublicComponents? {
            guard let primitives = try? key.getKeyPrimitives() else { return nil }
            return .init(modulus: primitives.modulus, exponent: primitives.publicExponent)
        }

        func isValidSignature(_ signature: Data, for message: some DataProtocol, padding: RSASignaturePadding) -> Bool {
            key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: message), padding: padding.cryptoExtras)
        }
    }

    /// An RSA private key, on swift-crypto's `_RSA` (BoringSSL).
    struct RSAPrivateKey: Sendable {
        let key: _RSA.Signing.PrivateKey

        init(_ key: _RSA.Signing.PrivateKey) { self.key = key }

        /// BoringSSL checks the key's consistency (RSA_check_key) as it reads it.
        init(pkcs1DER der: Data) throws {
            key = try RSAKeyEncoding.importing(der, isPrivate: true) { try _RSA.Signing.PrivateKey(derRepresentation: $0) }
        }

        var publicKey: RSAPublicKey? { RSAPublicKey(key.publicKey) }

        func signature(for message: some DataProtocol, padding: RSASignaturePadding) throws -> Data {
            try key.signature(for: SHA256.hash(data: message), padding: padding.cryptoExtras).rawRepresentation
        }
    }

    extension RSASignaturePadding {
        fileprivate var cryptoExtras: _RSA.Signing.Padding {
            switch self {
            case .pkcs1v15: return .insecurePKCS1v1_5
            case .pss: return .PSS
            }
        }
    }

    extension JWSSigningKey {
        /// An RSA key for RS256 or PS256.
        /// - Throws: ``JOSEError`` when `algorithm` is not an RSA algorithm.
        public static func rsa(
            _ key: _RSA.Signing.PrivateKey, algorithm: JWSAlgorithm = .rs256, keyID: String? = nil
        ) throws -> JWSSigningKey {
            try rsa(RSAPrivateKey(key), algorithm: algorithm, keyID: keyID)
        }
    }

    extension JWSVerificationKey {
        /// An RSA public key (RS256, PS256).
        public init(_ key: _RSA.Signing.PublicKey, keyID: String? = nil) {
            self.init(.rsa(RSAPublicKey(key)), keyID: keyID)
        }
    }
#endif
