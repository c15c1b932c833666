import Crypto
import Foundation

/// A value that can describe itself for a log line with its sensitive parts masked (Curity's
/// `Masking`).
///
/// Masking follows ``HaapiLogger/isSensitiveValueMasked`` (or the setting of the
/// ``HaapiLogger/withScope(_:_:)`` it runs in), as the logger's own lines do: while it is on (the
/// default) secrets print as ``HaapiLogger/maskText``; an app that turns it off while debugging
/// sees the values, and the logger warns about it.
public protocol Masking {
    /// The value for a log line: masked while ``HaapiLogger/isSensitiveValueMasked`` is on.
    var masked: String { get }
}

extension String: Masking {
    /// ``HaapiLogger/maskText`` while masking is on; the string itself otherwise.
    public var masked: String { HaapiLogger.mask(self) }

    /// The first characters, enough to tell two values apart in a log, then ``HaapiLogger/maskText``:
    /// at most 4 and at most a quarter of the string (none of a string of fewer than 4), so a
    /// short secret shows nothing. The string itself while masking is off.
    public var maskedPrefix: String {
        guard HaapiLogger.masksSensitiveValues else { return self }
        return String(prefix(Swift.min(4, count / 4))) + HaapiLogger.maskText
    }

    /// `data` as text in `encoding`, or `fallback` when there is no data or it is not text in
    /// that encoding.
    public static func optionalData(_ data: Data?, encoding: String.Encoding = .utf8, fallback: String = "") -> String {
        data.flatMap { String(data: $0, encoding: encoding) } ?? fallback
    }
}

extension URL: Masking {
    /// While masking is on, ``HaapiLogger/maskText`` in place of everything but the last path
    /// component (`*****/cat` for `https://idsvr.example/oauth/token/cat?client_id=app`), which
    /// says what was asked without naming the server or any query parameter; the whole URL otherwise.
    public var masked: String {
        guard HaapiLogger.masksSensitiveValues else { return absoluteString }
        let last = path.split(separator: "/").last.map(String.init) ?? ""
        return last.isEmpty ? HaapiLogger.maskText : "\(HaapiLogger.maskText)/\(last)"
    }
}

extension Data: Masking {
    /// While masking is on, ``HaapiLogger/maskText`` and the size (`***** (12 bytes)`); otherwise
    /// the bytes as UTF-8 text, or base64 when they are not text.
    public var masked: String {
        guard HaapiLogger.masksSensitiveValues else { return stringUtf8Encoding ?? base64EncodedString() }
        return "\(HaapiLogger.maskText) (\(count) bytes)"
    }

    /// The bytes as UTF-8 text, or `nil` when they are not UTF-8.
    public var stringUtf8Encoding: String? { String(data: self, encoding: .utf8) }
}

extension Dictionary: Masking where Key == String {
    /// The keys in order with their values masked (`[code: *****, state: *****]`): a
    /// dictionary of parameters or claims names what it holds without giving it away. A value
    /// that is ``Masking`` itself is described by its `masked`. Every value while masking is off.
    public var masked: String {
        let entries = sorted { $0.key < $1.key }.map { key, value -> String in
            guard HaapiLogger.masksSensitiveValues else { return "\(key): \(value)" }
            return "\(key): \((value as? any Masking)?.masked ?? HaapiLogger.maskText)"
        }
        return "[" + entries.joined(separator: ", ") + "]"
    }
}

extension NSObject: Masking {
    /// While masking is on, the class name and ``HaapiLogger/maskText`` (`<Dpop: *****>`); the
    /// object's `description` otherwise.
    public var masked: String {
        HaapiLogger.masksSensitiveValues ? "<\(type(of: self)): \(HaapiLogger.maskText)>" : description
    }
}

extension TransportRequest: Masking {
    /// The method, the URL's `masked` form (`URL.masked`), the header fields with the values of
    /// credential-carrying ones (`Authorization`, `DPoP`, `Session-Id`, cookies) masked, and the
    /// body's `Data.masked`; everything while masking is off.
    public var masked: String {
        Self.masked(method: method, url: url, headers: headers.map { ($0.name, $0.value) }, body: body)
    }

    /// How a request is described by `masked`: this type's, and Foundation's `URLRequest`'s.
    package static func masked(method: String, url: URL?, headers: [(String, String)], body: Data?) -> String {
        var fields = HeaderFields()
        for (name, value) in headers.sorted(by: { $0.0.lowercased() < $1.0.lowercased() }) { fields.add(name: name, value: value) }
        var interpolation = LogMessage.StringInterpolation(literalCapacity: 0, interpolationCount: 1)
        interpolation.appendLiteral("\(method) \(url?.masked ?? "<no url>") ")
        interpolation.appendInterpolation(headers: fields)
        var text = LogMessage(stringInterpolation: interpolation).rendered(masked: HaapiLogger.masksSensitiveValues)
        if let body { text += " body: \(body.masked)" }
        return text
    }
}

#if canImport(Darwin)
    extension URLRequest: Masking {
        /// As ``TransportRequest/masked``: the method, the masked URL, the header fields with
        /// credential-carrying values masked, and the masked body.
        public var masked: String {
            TransportRequest.masked(
                method: httpMethod ?? "GET", url: url, headers: (allHTTPHeaderFields ?? [:]).map { ($0.key, $0.value) }, body: httpBody)
        }
    }
#endif

extension StringProtocol {
    /// The SHA-256 hash of the UTF-8 bytes, as 64 lower-case hexadecimal digits.
    public var sha256Hex: String {
        SHA256.hash(data: dataUtf8Encoding).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// The UTF-8 bytes.
    public var dataUtf8Encoding: Data { Data(utf8) }

    /// The SHA-256 hash of the UTF-8 bytes in base64url without padding (a PKCE S256 challenge,
    /// a DPoP `ath`).
    public var base64URLEncodedStringOfSHA256Hash: String { Base64URL.encode(SHA256.hash(data: dataUtf8Encoding)) }
}
