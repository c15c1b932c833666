import Foundation

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
///
/// The material is kept as given; the transport that uses it reads it (NIOSSL in
/// `OAuthTransportNIO`, the Security framework under `URLSessionTransport` on Apple
/// platforms) and reports what it cannot read when it is made.
public struct ClientIdentity: Sendable, Hashable {
    /// The certificate and key as given.
    public enum Material: Sendable, Hashable {
        /// A PEM certificate chain (leaf first) and a PEM private key.
        case pem(certificateChain: String, privateKey: String)
        /// A PKCS#12 bundle (`.p12` / `.pfx`) and its passphrase.
        case pkcs12(Data, passphrase: String)
    }

    /// The certificate and key.
    public let material: Material

    /// An identity from a PEM certificate chain (leaf first) and a PEM private key.
    /// - Throws: ``HTTPTransportError`` with [`HTTPTransportError.Code.invalidRequest`](doc:ErrorCode/invalidRequest) when
    ///   either text holds no PEM block of its kind.
    public init(certificateChainPEM: String, privateKeyPEM: String) throws {
        guard certificateChainPEM.contains("-----BEGIN CERTIFICATE-----") else {
            throw HTTPTransportError(.invalidRequest, "the client certificate PEM holds no certificate")
        }
        guard privateKeyPEM.range(of: #"-----BEGIN [A-Z ]*PRIVATE KEY-----"#, options: .regularExpression) != nil else {
            throw HTTPTransportError(.invalidRequest, "the client key PEM holds no private key")
        }
        material = .pem(certificateChain: certificateChainPEM, privateKey: privateKeyPEM)
    }

    /// An identity from a PKCS#12 bundle (`.p12` / `.pfx`), as the seeds' `ClientAuthenticationMethodMTLS` loads it.
    /// - Throws: ``HTTPTransportError`` with [`HTTPTransportError.Code.invalidRequest`](doc:ErrorCode/invalidRequest) when the
    ///   data is not DER (a PKCS#12 bundle is one ASN.1 `SEQUENCE`). The passphrase is checked
    ///   when a transport opens the bundle.
    public init(pkcs12: Data, passphrase: String) throws {
        guard pkcs12.count > 4, pkcs12.first == 0x30 else {
            throw HTTPTransportError(.invalidRequest, "the PKCS#12 bundle is not DER data")
        }
        material = .pkcs12(pkcs12, passphrase: passphrase)
    }
}

/// TLS settings of a transport.
public struct TLSOptions: Sendable, Hashable {
    /// The client certificate to present, for mutual TLS.
    public var clientIdentity: ClientIdentity?
    /// PEM certificates to trust instead of the system's roots (for example a development CA).
    public var trustedRootsPEM: String?
    /// PEM certificates to trust besides the system's roots (or ``trustedRootsPEM``): a private
    /// CA, or a server's self-signed certificate, while other servers stay trusted as before.
    public var additionalTrustedRootsPEM: String?
    /// Server public keys to pin, per host. A pinned host is trusted by its key alone: the
    /// leaf certificate's key must match one of the host's pins.
    public var keyPinnings: [KeyPinning]
    /// Whether the certificate's host name is checked (the seeds' `isValidatingHostname`).
    public var validatesHostname: Bool

    /// Makes TLS options; the defaults trust the system roots and check host names.
    public init(
        clientIdentity: ClientIdentity? = nil, trustedRootsPEM: String? = nil, additionalTrustedRootsPEM: String? = nil,
        keyPinnings: [KeyPinning] = [],
        validatesHostname: Bool = true
    ) {
        self.clientIdentity = clientIdentity
        self.trustedRootsPEM = trustedRootsPEM
        self.additionalTrustedRootsPEM = additionalTrustedRootsPEM
        self.keyPinnings = keyPinnings
        self.validatesHostname = validatesHostname
    }

    /// Whether these are the defaults: the system's roots, host names checked, no client
    /// certificate, no pins.
    public var isSystemDefault: Bool { self == TLSOptions() }

    /// The pins for `host`, if any.
    public func pins(for host: String) -> Set<String> {
        Set(keyPinnings.filter { $0.hostname.caseInsensitiveCompare(host) == .orderedSame }.map(\.publicKeyHash))
    }
}

/// The settings every transport of the package takes.
public struct TransportConfiguration: Sendable, Hashable {
    /// The longest one exchange may take when the request sets no timeout, in seconds (default 30).
    public var timeout: TimeInterval
    /// TLS settings: client certificate, trust roots, pins.
    public var tls: TLSOptions
    /// The largest response body accepted (default 4 MiB).
    public var maximumResponseBytes: Int

    /// Makes a configuration.
    public init(timeout: TimeInterval = 30, tls: TLSOptions = TLSOptions(), maximumResponseBytes: Int = 4 << 20) {
        self.timeout = timeout
        self.tls = tls
        self.maximumResponseBytes = maximumResponseBytes
    }
}

extension URL {
    /// The URL without query, fragment and user information, for error messages and logs
    /// (queries can hold codes and tokens).
    package var redacted: String {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else { return "<url>" }
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        return components.string ?? "<url>"
    }
}
