import Crypto
import Foundation

/// The pin of a server key, as ``KeyPinning/publicKeyHash`` holds it: base64(SHA-256(DER
/// SubjectPublicKeyInfo)). Read from the certificate's DER with a minimal walker, so it works
/// wherever the platform hands over certificate bytes (Apple's Security framework does).
public enum PublicKeyPin {
    /// The pin of the key in `certificate` (DER).
    /// - Throws: ``HTTPTransportError`` with ``HTTPTransportError/Code/tlsFailure`` when the
    ///   bytes are not an X.509 certificate.
    public static func hash(ofCertificateDER certificate: Data) throws -> String {
        Data(SHA256.hash(data: try subjectPublicKeyInfo(ofCertificateDER: certificate))).base64EncodedString()
    }

    /// The DER SubjectPublicKeyInfo (tag and length included) of `certificate` (DER).
    /// - Throws: ``HTTPTransportError`` with ``HTTPTransportError/Code/tlsFailure`` when the
    ///   bytes are not an X.509 certificate.
    public static func subjectPublicKeyInfo(ofCertificateDER certificate: Data) throws -> Data {
        let bytes = [UInt8](certificate)
        // Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version OPTIONAL, serialNumber,
        //   signature, issuer, validity, subject, subjectPublicKeyInfo, ... }, ... } (RFC 5280 §4.1)
        guard let outer = element(in: bytes, at: 0), outer.tag == 0x30,
            let tbs = element(in: bytes, at: outer.contentStart), tbs.tag == 0x30
        else { throw malformed }
        var position = tbs.contentStart
        var index = 0
        while position < tbs.end, let field = element(in: bytes, at: position), field.end <= tbs.end {
            if index == 0 && field.tag == 0xA0 {
                position = field.end  // the explicit version does not count
                continue
            }
            if index == 5 {
                guard field.tag == 0x30 else { throw malformed }
                return Data(bytes[position..<field.end])
            }
            index += 1
            position = field.end
        }
        throw malformed
    }

    private static var malformed: HTTPTransportError {
        HTTPTransportError(.tlsFailure, "the server certificate is not a DER X.509 certificate")
    }

    /// One DER element at `offset`: its tag, where its content starts and where it ends.
    private static func element(in bytes: [UInt8], at offset: Int) -> (tag: UInt8, contentStart: Int, end: Int)? {
        guard offset + 2 <= bytes.count else { return nil }
        let tag = bytes[offset]
        let first = Int(bytes[offset + 1])
        var length = first
        var contentStart = offset + 2
        if first & 0x80 != 0 {
            let count = first & 0x7F
            guard count >= 1, count <= 4, offset + 2 + count <= bytes.count else { return nil }
            length = 0
            for byte in bytes[(offset + 2)..<(offset + 2 + count)] { length = length << 8 | Int(byte) }
            contentStart += count
        }
        guard length >= 0, contentStart + length <= bytes.count else { return nil }
        return (tag, contentStart, contentStart + length)
    }
}

/// PEM text (RFC 7468) as DER: what the platforms' certificate APIs take.
public enum PEM {
    /// The DER bytes of each `-----BEGIN <label>-----` block of `text`, in order.
    public static func blocks(in text: String, label: String) -> [Data] {
        var result: [Data] = []
        var remaining = Substring(text)
        let begin = "-----BEGIN \(label)-----"
        let end = "-----END \(label)-----"
        while let start = remaining.range(of: begin), let stop = remaining.range(of: end, range: start.upperBound..<remaining.endIndex) {
            let body = remaining[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }
            if let der = Data(base64Encoded: String(body)) { result.append(der) }
            remaining = remaining[stop.upperBound...]
        }
        return result
    }
}
