import Foundation

/// The protected header of a JWS (RFC 7515 §4).
public struct JOSEHeader: Sendable, Hashable {
    /// `alg` exactly as written; use ``algorithm()`` for the checked value.
    public var alg: String
    /// `typ`, such as `JWT` or `dpop+jwt`.
    public var typ: String?
    /// `kid`.
    public var kid: String?
    /// `jwk`: the public key embedded in the header (DPoP proofs carry one).
    public var jwk: JWK?
    /// `crit`: header parameters the recipient must understand.
    public var crit: [String]?
    /// Every member of the header as received.
    public var raw: [String: JSONValue]

    /// Makes a header for signing.
    public init(algorithm: JWSAlgorithm, typ: String? = nil, kid: String? = nil, jwk: JWK? = nil) {
        self.alg = algorithm.rawValue
        self.typ = typ
        self.kid = kid
        self.jwk = jwk
        self.raw = [:]
    }

    /// Parses a decoded header segment.
    /// - Throws: ``JOSEError`` with [`JOSEError.Code.malformed`](doc:ErrorCode/malformed) when it is not a JSON object with a string `alg`.
    public init(json: Data) throws {
        guard let value = try? JSONValue(parsing: json), let members = value.objectValue else {
            throw JOSEError(.malformed, "the JWS header is not a JSON object")
        }
        guard let alg = members["alg"]?.stringValue else {
            throw JOSEError(.malformed, "the JWS header has no string \"alg\"")
        }
        self.alg = alg
        self.raw = members
        self.typ = try Self.optionalString(members, "typ")
        self.kid = try Self.optionalString(members, "kid")
        if let jwk = members["jwk"] {
            guard jwk.objectValue != nil else { throw JOSEError(.malformed, "the header's \"jwk\" is not an object") }
            self.jwk = try JWK(json: jwk.serialized())
        }
        if let crit = members["crit"] {
            guard let names = crit.arrayValue?.compactMap(\.stringValue), names.count == crit.arrayValue?.count,
                !names.isEmpty
            else { throw JOSEError(.malformed, "the header's \"crit\" must be a non-empty array of strings") }
            self.crit = names
        }
    }

    private static func optionalString(_ members: [String: JSONValue], _ name: String) throws -> String? {
        try members.string(name, nullIsAbsent: false) { JOSEError(.malformed, "the header's \"\($0)\" is not a string") }
    }

    /// The checked algorithm.
    /// - Throws: ``JOSEError`` with [`JOSEError.Code.algorithmNone`](doc:ErrorCode/algorithmNone) or [`JOSEError.Code.unsupportedAlgorithm`](doc:ErrorCode/unsupportedAlgorithm).
    public func algorithm() throws -> JWSAlgorithm { try JWSAlgorithm.parse(alg) }

    /// The header as compact JSON, members in a fixed order.
    func serialized() -> Data {
        var members = ["\"alg\":\(JSONText.quoted(alg))"]
        if let typ { members.append("\"typ\":\(JSONText.quoted(typ))") }
        if let kid { members.append("\"kid\":\(JSONText.quoted(kid))") }
        if let jwk, let data = try? JSONValue.encodeSorted(jwk), let text = String(data: data, encoding: .utf8) {
            members.append("\"jwk\":\(text)")
        }
        return Data(("{" + members.joined(separator: ",") + "}").utf8)
    }
}
