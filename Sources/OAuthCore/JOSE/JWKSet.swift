import Foundation

/// A JWK Set (RFC 7517 §5), such as an authorization server's `jwks_uri` document.
public struct JWKSet: Sendable, Hashable {
    /// The keys this implementation understands; keys of unknown types are skipped,
    /// as RFC 7517 §5 asks.
    public var keys: [JWK]

    /// Makes a set from keys.
    public init(keys: [JWK]) { self.keys = keys }

    /// Parses a JWK Set document.
    /// - Throws: ``JOSEError`` with [`JOSEError.Code.malformed`](doc:ErrorCode/malformed) when it is not an object with a `keys` array.
    public init(json: Data) throws {
        guard let document = try? JSONValue(parsing: json), let entries = document["keys"]?.arrayValue else {
            throw JOSEError(.malformed, "a JWK Set must be a JSON object with a \"keys\" array")
        }
        let decoder = JSONDecoder()
        keys = entries.compactMap { entry in
            guard let key = try? decoder.decode(JWK.self, from: entry.serialized()) else { return nil }
            return ["EC", "RSA", "oct", "OKP"].contains(key.kty) ? key : nil
        }
    }

    /// The verification keys that may have signed a JWS with this header.
    ///
    /// With a `kid`, only the key of that id is a candidate, and an unknown `kid` is an
    /// error; without one, every key whose type fits the algorithm is.
    /// - Throws: ``JOSEError`` with [`JOSEError.Code.unknownKey`](doc:ErrorCode/unknownKey) when no key fits.
    public func candidates(for header: JOSEHeader) throws -> [JWSVerificationKey] {
        let algorithm = try header.algorithm()
        let named = header.kid.map { kid in keys.filter { $0.kid == kid } } ?? keys
        if let kid = header.kid, named.isEmpty {
            throw JOSEError(.unknownKey, "no key with kid \"\(kid)\" in the key set")
        }
        let usable = named.compactMap { try? JWSVerificationKey(jwk: $0) }.filter { $0.fits(algorithm) }
        if usable.isEmpty {
            throw JOSEError(.unknownKey, "no key in the key set fits \(algorithm.rawValue)")
        }
        return usable
    }
}
