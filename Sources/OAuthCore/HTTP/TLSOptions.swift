import Foundation
import NIOSSL

/// A pinned server public key (the seeds' `KeyPinning`): the base64 SHA-256 of the DER
/// SubjectPublicKeyInfo of the server certificate's key, for one host name.
public struct KeyPinning: Sendable, Hashable {
    /// The host the pin applies to, as written in URLs (name or IP address).
    public let hostname: String
    /// base64(SHA-256(SubjectPublicKeyInfo)), as `openssl ... | openssl dgst -sha256 -binary | base64` prints it.
    public let publicKeyHash: String

    /// Makes a pin.
    public init(hostname: String, publicKeyHash: String) {
        self.hostname = hostname
        self.publicKeyHash = publicKeyHash
    }
}

/// A client certificate and its private key, for mutual TLS (`tls_client_auth`).
public struct ClientIdentity: Sendable, Hashable {
    let certificates: [NIOSSLCertificate]
    let privateKey: NIOSSLPrivateKey

    /// An identity from a PEM certificate chain (leaf first) and a PEM private key.
    /// - Throws: ``HTTPTransportError`` with ``HTTPTransportError/Code/invalidRequest`` when the PEM cannot be read.
    public init(certificateChainPEM: String, privateKeyPEM: String) throws {
        do {
            certificates = try NIOSSLCertificate.fromPEMBytes(Array(certificateChainPEM.utf8))
            privateKey = try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)
        } catch {
            throw HTTPTransportError(.invalidRequest, "the client certificate or key PEM cannot be read", underlying: error)
        }
        guard !certificates.isEmpty else {
            throw HTTPTransportError(.invalidRequest, "the client certificate PEM holds no certificate")
        }
    }

    /// An identity from a PKCS#12 bundle (`.p12` / `.pfx`), as the seeds' `ClientAuthenticationMethodMTLS` loads it.
    public init(pkcs12: Data, passphrase: String) throws {
        do {
            let bundle = try NIOSSLPKCS12Bundle(buffer: Array(pkcs12), passphrase: Array(passphrase.utf8))
            certificates = bundle.certificateChain
            privateKey = bundle.privateKey
        } catch {
            throw HTTPTransportError(.invalidRequest, "the PKCS#12 bundle cannot be read (wrong passphrase?)", underlying: error)
        }
    }
}

/// TLS settings of a transport.
public struct TLSOptions: Sendable, Hashable {
    /// The client certificate to present, for mutual TLS.
    public var clientIdentity: ClientIdentity?
    /// PEM certificates to trust instead of the system's roots (for example a development CA).
    public var trustedRootsPEM: String?
    /// Server public keys to pin, per host. A pinned host is trusted by its key alone: the
    /// leaf certificate's key must match one of the host's pins.
    public var keyPinnings: [KeyPinning]
    /// Whether the certificate's host name is checked (the seeds' `isValidatingHostname`).
    public var validatesHostname: Bool

    /// Makes TLS options; the defaults trust the system roots and check host names.
    public init(
        clientIdentity: ClientIdentity? = nil, trustedRootsPEM: String? = nil, keyPinnings: [KeyPinning] = [],
        validatesHostname: Bool = true
    ) {
        self.clientIdentity = clientIdentity
        self.trustedRootsPEM = trustedRootsPEM
        self.keyPinnings = keyPinnings
        self.validatesHostname = validatesHostname
    }

    /// The pins for `host`, if any.
    func pins(for host: String) -> Set<String> {
        Set(keyPinnings.filter { $0.hostname.caseInsensitiveCompare(host) == .orderedSame }.map(\.publicKeyHash))
    }

    /// The NIOSSL client configuration these options describe.
    func makeConfiguration() throws -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let clientIdentity {
            configuration.certificateChain = clientIdentity.certificates.map { .certificate($0) }
            configuration.privateKey = .privateKey(clientIdentity.privateKey)
        }
        if let trustedRootsPEM {
            do {
                configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(trustedRootsPEM.utf8)))
            } catch {
                throw HTTPTransportError(.invalidRequest, "the trusted roots PEM cannot be read", underlying: error)
            }
        }
        if !validatesHostname { configuration.certificateVerification = .noHostnameVerification }
        return configuration
    }
}
