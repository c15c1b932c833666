import Foundation
import OAuthCore

#if canImport(Security)
    import Security
#endif

/// How the app's client authenticates at the token endpoint when it does not use attestation
/// (the seeds' `ClientAuthenticationMethod`): confidential clients and the DCR fallback.
public protocol ClientAuthenticationMethod: Sendable {
    /// The OAuthCore client authentication for `clientID`.
    func clientAuthentication(clientID: String) throws -> ClientAuthentication
    /// TLS settings the method needs (a client certificate, pins), if any.
    var tlsOptions: TLSOptions? { get }
}

extension ClientAuthenticationMethod {
    /// None: only the methods that need a client certificate or pins have TLS settings.
    public var tlsOptions: TLSOptions? { nil }
}

/// No client authentication: only `client_id` is sent (Curity's `ClientAuthenticationMethodNone`).
/// Not allowed with DCR.
public final class ClientAuthenticationMethodNone: NSObject, ClientAuthenticationMethod {
    /// No authentication.
    public override init() {}

    /// `client_id` only, in the request's body.
    public func clientAuthentication(clientID: String) throws -> ClientAuthentication { .none(clientID: clientID) }
}

/// A client secret, sent with HTTP Basic authentication (Curity's `ClientAuthenticationMethodSecret`).
public final class ClientAuthenticationMethodSecret: NSObject, ClientAuthenticationMethod {
    /// The secret.
    public let secret: String

    /// A client secret.
    public init(secret: String) { self.secret = secret }

    /// A client secret, as Curity's UI-kit guide writes it (`ClientAuthenticationMethodSecret("foo")`).
    public convenience init(_ secret: String) { self.init(secret: secret) }

    /// The secret with `client_id`, in HTTP Basic authentication.
    public func clientAuthentication(clientID: String) throws -> ClientAuthentication {
        .clientSecretBasic(clientID: clientID, secret: secret)
    }
}

/// The algorithms of ``ClientAuthenticationMethodJWTAsymmetric`` (Curity's `JWTAsymmetricAlgorithm`).
/// The package signs with ES256, ES384, ES512, RS256 and PS256; a method made with another
/// is refused with ``HaapiError/invalidConfiguration(reason:)``.
/// Its raw values are Curity's numbers, in the order of the cases.
public enum JWTAsymmetricAlgorithm: Int, Sendable, CaseIterable {
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    case rs256
    /// RSASSA-PKCS1-v1_5 with SHA-384 (not supported by this package).
    case rs384
    /// RSASSA-PKCS1-v1_5 with SHA-512 (not supported by this package).
    case rs512
    /// RSASSA-PSS with SHA-256.
    case ps256
    /// RSASSA-PSS with SHA-384 (not supported by this package).
    case ps384
    /// RSASSA-PSS with SHA-512 (not supported by this package).
    case ps512
    /// ECDSA on P-256 with SHA-256.
    case es256
    /// ECDSA on P-384 with SHA-384.
    case es384
    /// ECDSA on P-521 with SHA-512.
    case es512

    /// The algorithm's JWS name (`RS256`, ...).
    public var name: String { String(describing: self).uppercased() }

    /// The JWS algorithm, when the package signs with it.
    var jws: JWSAlgorithm? { JWSAlgorithm(rawValue: name) }
}

/// The algorithms of ``ClientAuthenticationMethodJWTSymmetric`` (Curity's `JWTSymmetricAlgorithm`).
/// The package signs with HS256; a method made with another is refused when used.
/// Its raw values are Curity's numbers, in the order of the cases.
public enum JWTSymmetricAlgorithm: Int, Sendable, CaseIterable {
    /// HMAC with SHA-256.
    case hs256
    /// HMAC with SHA-384 (not supported by this package).
    case hs384
    /// HMAC with SHA-512 (not supported by this package).
    case hs512

    /// The algorithm's JWS name (`HS256`, ...).
    public var name: String { String(describing: self).uppercased() }
}

/// A client assertion signed with the app's private key (`private_key_jwt`; Curity's
/// `ClientAuthenticationMethodJWTAsymmetric`).
public final class ClientAuthenticationMethodJWTAsymmetric: NSObject, ClientAuthenticationMethod {
    /// The signing key.
    public let key: JWSSigningKey
    /// The algorithm the assertions are signed with.
    public let signatureAlgorithm: JWTAsymmetricAlgorithm
    #if canImport(Security)
        /// The private key as a Security framework key (Curity's `privateKey`); the same key as ``key``.
        /// `nonisolated(unsafe)`: a `SecKey` is immutable, and Security uses it from any thread.
        public nonisolated(unsafe) let privateKey: SecKey
    #endif

    /// A private key from PEM text.
    /// - Throws: ``CryptoImportError/invalidPEMString(_:cause:)`` when the PEM is not a key of the
    ///   algorithm; ``HaapiError/invalidConfiguration(reason:)`` when the package does not sign with it.
    public init(pem: String, signatureAlgorithm: JWTAsymmetricAlgorithm, keyID: String? = nil) throws {
        guard let algorithm = signatureAlgorithm.jws else {
            throw HaapiError.invalidConfiguration(
                reason: "\(signatureAlgorithm.name) client assertions are not supported; use ES256, ES384, ES512, RS256 or PS256")
        }
        do {
            key = try JWSSigningKey(pem: pem, algorithm: algorithm, keyID: keyID)
        } catch {
            throw CryptoImportError.invalidPEMString("the \(signatureAlgorithm.name) client key cannot be read", cause: error)
        }
        self.signatureAlgorithm = signatureAlgorithm
        #if canImport(Security)
            privateKey = try Self.securityKey(of: key)
        #endif
    }

    /// A signing key already loaded (from a private JWK, for example).
    /// - Throws: ``HaapiError/invalidConfiguration(reason:)`` for an HMAC or EdDSA key.
    public init(key: JWSSigningKey) throws {
        guard !key.algorithm.isSymmetric,
            let algorithm = JWTAsymmetricAlgorithm.allCases.first(where: { $0.name == key.algorithm.rawValue })
        else {
            throw HaapiError.invalidConfiguration(reason: "private_key_jwt needs an RSA or EC key, not \(key.algorithm.rawValue)")
        }
        self.key = key
        signatureAlgorithm = algorithm
        #if canImport(Security)
            privateKey = try Self.securityKey(of: key)
        #endif
    }

    #if canImport(Security)
        /// The Security framework's form of `key`.
        /// - Throws: ``CryptoImportError/invalidType(_:)`` when Security does not take it.
        private static func securityKey(of key: JWSSigningKey) throws -> SecKey {
            guard let secKey = key.secKey else {
                throw CryptoImportError.invalidType("the Security framework does not take this \(key.algorithm.rawValue) key")
            }
            return secKey
        }
    #endif

    /// A private key from a PEM file, as Curity's SDK loads it: a resource of `bundle` of that
    /// name (extension included), or else a file at that path.
    /// - Throws: ``CryptoImportError/invalidPath(_:)`` when there is no such file; the errors of
    ///   ``init(pem:signatureAlgorithm:keyID:)``.
    public convenience init(pemFilename: String, signatureAlgorithm: JWTAsymmetricAlgorithm, bundle: Bundle = .main) throws {
        let pem = try BundledFile.text(pemFilename, in: bundle, what: "client key")
        try self.init(pem: pem, signatureAlgorithm: signatureAlgorithm)
    }

    /// A `client_assertion` JWT signed with the client's key, made for each request.
    public func clientAuthentication(clientID: String) throws -> ClientAuthentication {
        try .privateKeyJWT(clientID: clientID, key: key)
    }
}

/// A client assertion signed with a shared secret (`client_secret_jwt`; Curity's
/// `ClientAuthenticationMethodJWTSymmetric`).
public final class ClientAuthenticationMethodJWTSymmetric: NSObject, ClientAuthenticationMethod {
    /// The algorithm.
    public let signatureAlgorithm: JWTSymmetricAlgorithm
    /// The shared secret.
    public let secretKey: String

    /// A symmetric key.
    public init(signatureAlgorithm: JWTSymmetricAlgorithm = .hs256, secretKey: String) {
        self.signatureAlgorithm = signatureAlgorithm
        self.secretKey = secretKey
    }

    /// - Throws: ``HaapiError/invalidConfiguration(reason:)`` for an algorithm other than HS256,
    ///   or a secret shorter than the 32 bytes HS256 needs.
    public func clientAuthentication(clientID: String) throws -> ClientAuthentication {
        guard signatureAlgorithm == .hs256 else {
            throw HaapiError.invalidConfiguration(reason: "\(signatureAlgorithm.name) client assertions are not supported; use HS256")
        }
        do {
            return try .clientSecretJWT(clientID: clientID, secret: secretKey)
        } catch {
            throw HaapiError.invalidConfiguration(reason: "the HS256 client secret is unusable: \(error)")
        }
    }
}

/// Mutual TLS with a client certificate (`tls_client_auth`), trusting the server by a PEM
/// certificate or by pinned public keys (Curity's `ClientAuthenticationMethodMTLS`).
public final class ClientAuthenticationMethodMTLS: NSObject, ClientAuthenticationMethod {
    /// The client identity and the server trust.
    public let tlsOptions: TLSOptions?

    /// A PKCS#12 client identity, trusting the server certificate(s) in `serverPEM` (or the system roots when `nil`).
    public init(pkcs12: Data, pkcs12Passphrase: String, serverPEM: String? = nil, isValidatingHostname: Bool = true) throws {
        do {
            tlsOptions = TLSOptions(
                clientIdentity: try ClientIdentity(pkcs12: pkcs12, passphrase: pkcs12Passphrase), trustedRootsPEM: serverPEM,
                validatesHostname: isValidatingHostname)
        } catch {
            throw HaapiError.invalidConfiguration(reason: "the client certificate cannot be read: \(error)")
        }
    }

    /// A PKCS#12 client identity, trusting the server by its public key hash.
    public init(pkcs12: Data, pkcs12Passphrase: String, serverKeyPinnings: [KeyPinning]) throws {
        do {
            tlsOptions = TLSOptions(
                clientIdentity: try ClientIdentity(pkcs12: pkcs12, passphrase: pkcs12Passphrase), keyPinnings: serverKeyPinnings)
        } catch {
            throw HaapiError.invalidConfiguration(reason: "the client certificate cannot be read: \(error)")
        }
    }

    /// As the seeds write it: the client's PKCS#12 file and the server's PEM certificate file,
    /// each a resource of `bundle` of that name (extension included) or else a file at that path.
    public convenience init(
        pkcs12Filename: String, pkcs12Passphrase: String, serverPEMFilename: String? = nil, isValidatingHostname: Bool = true,
        bundle: Bundle = .main
    ) throws {
        let pkcs12 = try BundledFile.data(pkcs12Filename, in: bundle, what: "PKCS#12")
        let serverPEM = try serverPEMFilename.map { try BundledFile.text($0, in: bundle, what: "server certificate") }
        try self.init(pkcs12: pkcs12, pkcs12Passphrase: pkcs12Passphrase, serverPEM: serverPEM, isValidatingHostname: isValidatingHostname)
    }

    /// As the seeds write it: the client's PKCS#12 file (a resource of `bundle` or a path), the
    /// server trusted by its public key hash.
    public convenience init(pkcs12Filename: String, pkcs12Passphrase: String, serverKeyPinnings: [KeyPinning], bundle: Bundle = .main)
        throws
    {
        let pkcs12 = try BundledFile.data(pkcs12Filename, in: bundle, what: "PKCS#12")
        try self.init(pkcs12: pkcs12, pkcs12Passphrase: pkcs12Passphrase, serverKeyPinnings: serverKeyPinnings)
    }

    /// `client_id` in the body; the client proves itself with its certificate in the TLS handshake.
    public func clientAuthentication(clientID: String) throws -> ClientAuthentication { .tlsClientAuth(clientID: clientID) }
}

/// Files the client authentication methods load by name, as the seeds name them.
enum BundledFile {
    /// The contents of the resource `name` of `bundle`, or else of the file at path `name`.
    /// - Throws: ``CryptoImportError/invalidPath(_:)`` when neither can be read.
    static func data(_ name: String, in bundle: Bundle, what: String) throws -> Data {
        let url = bundle.url(forResource: name, withExtension: nil) ?? URL(fileURLWithPath: name)
        do { return try OutsideFile.read(url.path, limit: 1 << 20) } catch let refusal as OutsideFile.Refusal {
            throw CryptoImportError.invalidPath(
                "cannot read the \(what) file \(name) (neither a resource of \(bundle.bundlePath) nor a readable path): \(refusal.reason)")
        }
    }

    /// ``data(_:in:what:)`` as UTF-8 text.
    /// - Throws: ``CryptoImportError/invalidType(_:)`` when it is not UTF-8 text.
    static func text(_ name: String, in bundle: Bundle, what: String) throws -> String {
        guard let text = String(data: try data(name, in: bundle, what: what), encoding: .utf8) else {
            throw CryptoImportError.invalidType("the \(what) file \(name) is not UTF-8 text")
        }
        return text
    }
}

/// Why a key or certificate the app ships could not be imported (Curity's `CryptoImportError`).
public enum CryptoImportError: IdsvrError, CustomDebugStringConvertible {
    /// No file at that name or path; the text says which.
    case invalidPath(_ description: String)
    /// The PEM text is not a key (or certificate) of the kind asked for.
    case invalidPEMString(_ description: String, cause: (any Error)?)
    /// The passphrase does not open the PKCS#12 bundle.
    case invalidPassphrase
    /// The file is not of the type asked for (not text, not a key of that kind).
    case invalidType(_ description: String)
    /// The data ends before what it says it holds.
    case outOfBounds
    /// The material was read but could not be imported; the text says why.
    case failedToImport(_ description: String)

    /// The error's code: `invalid_path`, `invalid_pem_string`, `invalid_passphrase`, `invalid_type`,
    /// `out_of_bounds` or `failed_to_import`.
    public var error: String {
        switch self {
        case .invalidPath: return "invalid_path"
        case .invalidPEMString: return "invalid_pem_string"
        case .invalidPassphrase: return "invalid_passphrase"
        case .invalidType: return "invalid_type"
        case .outOfBounds: return "out_of_bounds"
        case .failedToImport: return "failed_to_import"
        }
    }

    /// Which file or material could not be read, and why.
    public var errorDescription: String? {
        switch self {
        case .invalidPath(let description), .invalidPEMString(let description, _), .invalidType(let description),
            .failedToImport(let description):
            return description
        case .invalidPassphrase: return "the passphrase does not open the PKCS#12 bundle"
        case .outOfBounds: return "the data ends before what it says it holds"
        }
    }

    /// The underlying error of an unreadable PEM, when there is one; otherwise the description.
    public var failureReason: String {
        if case .invalidPEMString(_, let cause?) = self { return String(describing: cause) }
        return errorDescription ?? error
    }

    /// The app ships the key or certificate and names it in its configuration.
    public var recoverySuggestion: IdsvrErrorHandling { .unrecoverable(action: .modifyConfiguration(reason: errorDescription ?? error)) }

    /// The underlying error of an unreadable PEM, when there is one.
    public var cause: (any Error)? {
        if case .invalidPEMString(_, let cause) = self { return cause }
        return nil
    }

    /// The code and the description.
    public var debugDescription: String { description }
}
