import Foundation

/// A JWS in compact serialization (RFC 7515 §7.1): `header.payload.signature`.
///
/// Parsing only splits and decodes; nothing is trusted until verification with a key
/// (``verify(with:allowedAlgorithms:)-(JWSVerificationKey,_)``) or with a ``JWKSet``
/// (``verify(with:allowedAlgorithms:)-(JWKSet,_)``) has succeeded.
public struct CompactJWS: Sendable {
    /// The largest compact JWS accepted by default (64 KiB): far above any real token,
    /// small enough that hostile input cannot exhaust memory.
    public static let defaultMaximumLength = 64 * 1024

    /// The decoded protected header.
    public let header: JOSEHeader
    /// The decoded payload bytes.
    public let payload: Data
    /// The decoded signature bytes.
    public let signature: Data
    /// The ASCII signing input, `base64url(header) + "." + base64url(payload)`.
    public let signingInput: Data

    /// Parses a compact JWS.
    /// - Throws: ``JOSEError``: [`JOSEError.Code.tooLarge`](doc:ErrorCode/tooLarge), [`JOSEError.Code.malformed`](doc:ErrorCode/malformed) (not three
    ///   segments, header not JSON), [`JOSEError.Code.invalidBase64URL`](doc:ErrorCode/invalidBase64URL), or
    ///   [`JOSEError.Code.unsupportedCriticalHeader`](doc:ErrorCode/unsupportedCriticalHeader).
    public init(_ compact: String, maximumLength: Int = CompactJWS.defaultMaximumLength) throws {
        guard compact.utf8.count <= maximumLength else {
            throw JOSEError(.tooLarge, "the JWS is \(compact.utf8.count) bytes, more than the \(maximumLength) allowed")
        }
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw JOSEError(.malformed, "a compact JWS has 3 dot-separated segments, this has \(parts.count)")
        }
        guard !parts[0].isEmpty else { throw JOSEError(.malformed, "the JWS header segment is empty") }
        guard let headerBytes = Base64URL.decode(parts[0]) else {
            throw JOSEError(.invalidBase64URL, "the JWS header segment is not base64url")
        }
        guard let payload = Base64URL.decode(parts[1]) else {
            throw JOSEError(.invalidBase64URL, "the JWS payload segment is not base64url")
        }
        guard let signature = Base64URL.decode(parts[2]) else {
            throw JOSEError(.invalidBase64URL, "the JWS signature segment is not base64url")
        }
        header = try JOSEHeader(json: headerBytes)
        if let critical = header.crit {
            // No extension header parameters are understood, so any critical one must be refused (RFC 7515 §4.1.11).
            throw JOSEError(.unsupportedCriticalHeader, "unsupported critical header parameters: \(critical.joined(separator: ", "))")
        }
        self.payload = payload
        self.signature = signature
        self.signingInput = Data(compact.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
    }

    /// The header's algorithm, refused if it is `none` or unsupported.
    public func algorithm() throws -> JWSAlgorithm { try header.algorithm() }

    /// Verifies the signature with one key.
    ///
    /// - Parameters:
    ///   - key: the key that must have made the signature.
    ///   - allowedAlgorithms: when given, the header's `alg` must be one of these.
    /// - Throws: ``JOSEError``: [`JOSEError.Code.algorithmNone`](doc:ErrorCode/algorithmNone), [`JOSEError.Code.unsupportedAlgorithm`](doc:ErrorCode/unsupportedAlgorithm),
    ///   [`JOSEError.Code.algorithmNotAllowed`](doc:ErrorCode/algorithmNotAllowed), [`JOSEError.Code.algorithmKeyMismatch`](doc:ErrorCode/algorithmKeyMismatch) or
    ///   [`JOSEError.Code.invalidSignature`](doc:ErrorCode/invalidSignature).
    public func verify(with key: JWSVerificationKey, allowedAlgorithms: Set<JWSAlgorithm>? = nil) throws {
        let algorithm = try checkedAlgorithm(allowedAlgorithms)
        try key.verify(signature: signature, input: signingInput, algorithm: algorithm)
    }

    /// Verifies the signature with the key of a key set that the header names (`kid`), or
    /// with any key of the set that fits the algorithm when the header names none.
    public func verify(with keys: JWKSet, allowedAlgorithms: Set<JWSAlgorithm>? = nil) throws {
        let algorithm = try checkedAlgorithm(allowedAlgorithms)
        var lastError = JOSEError(.unknownKey, "no key verified the signature")
        for key in try keys.candidates(for: header) {
            do {
                return try key.verify(signature: signature, input: signingInput, algorithm: algorithm)
            } catch let error as JOSEError {
                lastError = error
            }
        }
        throw lastError
    }

    private func checkedAlgorithm(_ allowed: Set<JWSAlgorithm>?) throws -> JWSAlgorithm {
        let algorithm = try header.algorithm()
        if let allowed, !allowed.contains(algorithm) {
            throw JOSEError(.algorithmNotAllowed, "\(algorithm.rawValue) is not among the allowed algorithms")
        }
        return algorithm
    }

    /// Signs `payload` and returns the compact serialization.
    ///
    /// The header's `alg` (and `kid`, unless the header names one) are taken from the key.
    public static func sign(payload: Data, header: JOSEHeader, key: JWSSigningKey) throws -> String {
        var header = header
        header.alg = key.algorithm.rawValue
        if header.kid == nil { header.kid = key.keyID }
        let input = Base64URL.encode(header.serialized()) + "." + Base64URL.encode(payload)
        let signature = try key.sign(Data(input.utf8))
        return input + "." + Base64URL.encode(signature)
    }
}
