import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// A certificate and its key, with their PEM forms.
public struct TestIdentity: Sendable {
    /// The certificate.
    public let certificate: Certificate
    /// Its private key.
    public let key: P256.Signing.PrivateKey

    /// The certificate in PEM.
    public var certificatePEM: String { get throws { try certificate.serializeAsPEM().pemString } }
    /// The key in PEM.
    public var keyPEM: String { key.pemRepresentation }

    /// base64(SHA-256(DER SubjectPublicKeyInfo)), computed with swift-certificates.
    public var publicKeyHash: String {
        get throws {
            var serializer = DER.Serializer()
            try serializer.serialize(certificate.publicKey)
            return Data(SHA256.hash(data: serializer.serializedBytes)).base64EncodedString()
        }
    }

    /// The same hash, computed with NIOSSL from the PEM certificate.
    public var publicKeyHashViaNIOSSL: String {
        get throws {
            let certificate = try NIOSSLCertificate(bytes: Array(certificatePEM.utf8), format: .pem)
            let spki = try certificate.extractPublicKey().toSPKIBytes()
            return Data(SHA256.hash(data: spki)).base64EncodedString()
        }
    }

    /// The certificate for NIOSSL.
    public var nioCertificate: NIOSSLCertificate {
        get throws { try NIOSSLCertificate(bytes: Array(certificatePEM.utf8), format: .pem) }
    }
    /// The key for NIOSSL.
    public var nioKey: NIOSSLPrivateKey { get throws { try NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem) } }
}

/// An in-memory PKI: a CA, server and client certificates it signs, and an unrelated CA and server
/// (the one certificate maker of the tests).
public struct TestPKI: Sendable {
    /// The test CA (self-signed).
    public let ca: TestIdentity
    /// Server certificate for 127.0.0.1 and ::1 (IP SANs) and localhost (DNS SAN), signed by `ca`.
    public let server: TestIdentity
    /// Server certificate for `wrong.example` only, signed by `ca`.
    public let wrongNameServer: TestIdentity
    /// Client certificate (clientAuth), signed by `ca`.
    public let client: TestIdentity
    /// An unrelated CA.
    public let otherCA: TestIdentity
    /// Server certificate for 127.0.0.1 and localhost, with its own key, signed by `otherCA`.
    public let otherServer: TestIdentity
    /// ``server``'s key in a certificate that expired yesterday (a pinned key, an expired certificate).
    public let expiredServer: TestIdentity
    /// A server certificate for 127.0.0.1 and localhost that signs itself (no CA).
    public let selfSignedServer: TestIdentity

    /// The one PKI of a test process.
    public static let shared: TestPKI = {
        do { return try TestPKI() } catch { fatalError("cannot make the test PKI: \(error)") }
    }()

    private init() throws {
        ca = try Self.makeCA(name: "swift-haapi Test CA")
        server = try Self.issue(
            by: ca, commonName: "127.0.0.1",
            names: [
                .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
                .ipAddress(ASN1OctetString(contentBytes: Array(repeating: 0, count: 15) + [1])), .dnsName("localhost"),
            ],
            usage: .serverAuth)
        wrongNameServer = try Self.issue(
            by: ca, commonName: "wrong.example", names: [.dnsName("wrong.example")], usage: .serverAuth)
        client = try Self.issue(by: ca, commonName: "test client", names: [], usage: .clientAuth)
        otherCA = try Self.makeCA(name: "Unrelated CA")
        otherServer = try Self.issue(
            by: otherCA, commonName: "127.0.0.1",
            names: [.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])), .dnsName("localhost")],
            usage: .serverAuth)
        expiredServer = try Self.issue(
            by: ca, commonName: "127.0.0.1", names: [.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])), .dnsName("localhost")],
            usage: .serverAuth, key: server.key, validity: (Date() - 2 * 86400, Date() - 86400))
        let selfSignedKey = P256.Signing.PrivateKey()
        let selfSignedName = try DistinguishedName { CommonName("self-signed dev server") }
        selfSignedServer = try Self.issue(
            by: TestIdentity(
                certificate: try Certificate(
                    version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(selfSignedKey.publicKey),
                    notValidBefore: Date() - 3600, notValidAfter: Date() + 86400, issuer: selfSignedName, subject: selfSignedName,
                    extensions: Certificate.Extensions(), issuerPrivateKey: Certificate.PrivateKey(selfSignedKey)),
                key: selfSignedKey),
            commonName: "self-signed dev server",
            names: [.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])), .dnsName("localhost")],
            usage: .serverAuth, key: selfSignedKey)
    }

    private static func makeCA(name: String) throws -> TestIdentity {
        let key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName { CommonName(name) }
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 86400, issuer: subject, subject: subject,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: Certificate.PrivateKey(key))
        return TestIdentity(certificate: certificate, key: key)
    }

    private static func issue(
        by issuer: TestIdentity, commonName: String, names: [GeneralName], usage: ExtendedKeyUsage.Usage,
        key: P256.Signing.PrivateKey = P256.Signing.PrivateKey(), validity: (Date, Date) = (Date() - 3600, Date() + 86400)
    ) throws -> TestIdentity {
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: validity.0, notValidAfter: validity.1, issuer: issuer.certificate.subject,
            subject: try DistinguishedName { CommonName(commonName) },
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([usage])
                if !names.isEmpty { SubjectAlternativeNames(names) }
            },
            issuerPrivateKey: Certificate.PrivateKey(issuer.key))
        return TestIdentity(certificate: certificate, key: key)
    }

    /// A TLS server configuration presenting `identity`; with `clientCA`, client certificates
    /// signed by it are required.
    public func serverTLS(_ identity: TestIdentity, requiringClientCertificateFrom clientCA: TestIdentity? = nil) throws
        -> TLSConfiguration
    {
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try identity.nioCertificate)], privateKey: .privateKey(try identity.nioKey))
        if let clientCA {
            configuration.certificateVerification = .noHostnameVerification
            configuration.trustRoots = .certificates([try clientCA.nioCertificate])
        }
        return configuration
    }
}
