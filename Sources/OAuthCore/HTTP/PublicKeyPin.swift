import Crypto
import Foundation

/// The pin of a server key, as ``KeyPinning/publicKeyHash`` holds it: base64(SHA-256(DER
/// SubjectPublicKeyInfo)). Read from the certificate's DER with a minimal walker, so it works
/// wherever the platform hands over certificate bytes (Apple's Security framework does).
public enum PublicKeyPin {
    /// The pin of the key in `certificate` (DER).
    /// - Throws: ``HTTPTransportError`` with [`HTTPTransportError.Code.tlsFailure`](doc:ErrorCode/tlsFailure) when the
    ///   bytes are not an X.509 certificate.
    public static func hash(ofCertificateDER certificate: Data) throws -> String {
        Data(SHA256.hash(data: try subjectPublicKeyInfo(ofCertificateDER: certificate))).base64EncodedString()
    }

    /// The DER SubjectPublicKeyInfo (tag and length included) of `certificate` (DER).
    /// - Throws: ``HTTPTransportError`` with [`HTTPTransportError.Code.tlsFailure`](doc:ErrorCode/tlsFailure) when the
    ///   bytes are not an X.509 certificate.
    public static func subjectPublicKeyInfo(ofCertificateDER certificate: Data) throws -> Data {
        // Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version OPTIONAL, serialNumber,
        //   signature, issuer, validity, subject, subjectPublicKeyInfo, ... }, ... } (RFC 5280 §4.1)
        do {
            var outer = DER.Reader(certificate)
            var certificate = DER.Reader(try outer.read(.sequence))
            var tbs = DER.Reader(try certificate.read(.sequence))
            var field = try tbs.readElement()
            if field.tag == 0xA0 { field = try tbs.readElement() }  // the explicit version does not count
            for _ in 0..<5 { field = try tbs.readElement() }
            guard field.tag == DER.Tag.sequence.rawValue else { throw malformed }
            return field.encoded
        } catch is DER.Error {
            throw malformed
        }
    }

    private static var malformed: HTTPTransportError {
        HTTPTransportError(.tlsFailure, "the server certificate is not a DER X.509 certificate")
    }
}
