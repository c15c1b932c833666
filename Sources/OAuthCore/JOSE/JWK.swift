import Crypto
import Foundation

/// A JSON Web Key (RFC 7517), public or private.
///
/// Only the members this package uses are typed; the key material stays base64url text
/// exactly as received so that thumbprints are computed over the original values.
public struct JWK: Sendable, Hashable, Codable {
    /// Key type: `EC`, `RSA`, `oct` or `OKP`.
    public var kty: String
    /// Curve for `EC` and `OKP` keys: `P-256`, `P-384`, `P-521`, `Ed25519`.
    public var crv: String?
    /// EC / OKP public coordinate.
    public var x: String?
    /// EC public coordinate.
    public var y: String?
    /// RSA modulus.
    public var n: String?
    /// RSA public exponent.
    public var e: String?
    /// Private value: EC / OKP private key, or the RSA private exponent.
    public var d: String?
    /// RSA first prime factor.
    public var p: String?
    /// RSA second prime factor.
    public var q: String?
    /// RSA first factor CRT exponent.
    public var dp: String?
    /// RSA second factor CRT exponent.
    public var dq: String?
    /// RSA first CRT coefficient.
    public var qi: String?
    /// Symmetric key value.
    public var k: String?
    /// Key id.
    public var kid: String?
    /// Intended use: `sig` or `enc`.
    public var use: String?
    /// The algorithm the key is meant for, if the key says.
    public var alg: String?

    /// Makes a JWK from its members.
    public init(
        kty: String, crv: String? = nil, x: String? = nil, y: String? = nil, n: String? = nil, e: String? = nil,
        d: String? = nil, k: String? = nil, kid: String? = nil, use: String? = nil, alg: String? = nil
    ) {
        self.kty = kty
        self.crv = crv
        self.x = x
        self.y = y
        self.n = n
        self.e = e
        self.d = d
        self.k = k
        self.kid = kid
        self.use = use
        self.alg = alg
    }

    /// Parses one JWK from JSON.
    /// - Throws: ``JOSEError`` with [`JOSEError.Code.malformed`](doc:ErrorCode/malformed) when it is not a JWK object.
    public init(json: Data) throws {
        let value: JSONValue
        do { value = try JSONValue(parsing: json) } catch { throw JOSEError(.malformed, "not a JWK: \(error)") }
        try self.init(members: value)
    }

    /// Reads a JWK from its parsed JSON: an object with `kty`, its other members strings when
    /// present. Read by hand rather than by `JSONDecoder`, whose generic machinery costs a
    /// command-line tool that reads one stored key at each start more than the rest of the read.
    /// - Throws: ``JOSEError`` with [`JOSEError.Code.malformed`](doc:ErrorCode/malformed) naming the member that is wrong.
    public init(members value: JSONValue) throws {
        guard case .object(let members) = value else { throw JOSEError(.malformed, "not a JWK: not a JSON object") }
        func member(_ name: String) throws -> String? {
            switch members[name] {
            case nil, .null?: return nil
            case .string(let text)?: return text
            default: throw JOSEError(.malformed, "not a JWK: \"\(name)\" is not a string")
            }
        }
        guard let kty = try member("kty") else { throw JOSEError(.malformed, "not a JWK: \"kty\" is missing") }
        self.init(
            kty: kty, crv: try member("crv"), x: try member("x"), y: try member("y"), n: try member("n"), e: try member("e"),
            d: try member("d"), k: try member("k"), kid: try member("kid"), use: try member("use"), alg: try member("alg"))
        (p, q, dp, dq, qi) = (try member("p"), try member("q"), try member("dp"), try member("dq"), try member("qi"))
    }

    /// Decodes a JWK through ``init(members:)``.
    public init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        do { try self.init(members: value) } catch let error as JOSEError {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    /// Whether the key holds private (or secret) material.
    public var isPrivate: Bool { d != nil || k != nil }

    /// The key without its private members, safe to publish.
    public var publicKey: JWK {
        var key = JWK(kty: kty, crv: crv, x: x, y: y, n: n, e: e, kid: kid, use: use, alg: alg)
        if kty == "oct" { key.k = nil }
        return key
    }

    /// The RFC 7638 thumbprint input: the required public members in lexicographic order, no whitespace.
    /// - Throws: ``JOSEError`` when the key type is unknown or a required member is missing.
    public func thumbprintInput() throws -> Data {
        func member(_ name: String, _ value: String?) throws -> String {
            guard let value else { throw JOSEError(.invalidKey, "JWK of kty \(kty) lacks \"\(name)\"") }
            return "\"\(name)\":\(JSONText.quoted(value))"
        }
        let members: [String]
        switch kty {
        case "EC": members = [try member("crv", crv), try member("kty", kty), try member("x", x), try member("y", y)]
        case "RSA": members = [try member("e", e), try member("kty", kty), try member("n", n)]
        case "oct": members = [try member("k", k), try member("kty", kty)]
        case "OKP": members = [try member("crv", crv), try member("kty", kty), try member("x", x)]
        default: throw JOSEError(.unsupportedKeyType, "no thumbprint rule for kty \"\(kty)\"")
        }
        return Data(("{" + members.joined(separator: ",") + "}").utf8)
    }

    /// The RFC 7638 JWK thumbprint with SHA-256, base64url: what DPoP's `jkt` and `cnf.jkt` carry.
    public func thumbprint() throws -> String {
        Base64URL.encode(SHA256.hash(data: try thumbprintInput()))
    }

    /// Decodes a base64url member, naming it in the error when it is missing or not base64url.
    func bytes(_ name: String, _ value: String?) throws -> Data {
        guard let value else { throw JOSEError(.invalidKey, "JWK of kty \(kty) lacks \"\(name)\"") }
        guard let data = Base64URL.decode(value) else {
            throw JOSEError(.invalidBase64URL, "JWK member \"\(name)\" is not base64url")
        }
        return data
    }
}

/// Minimal JSON text helpers for the few places where JSON is written by hand for speed
/// (DPoP proofs) or exactness (RFC 7638 thumbprints).
enum JSONText {
    /// A JSON string literal for `value`, escaped per RFC 8259.
    static func quoted(_ value: String) -> String {
        "\"" + value.escaped(by: escape) + "\""
    }

    /// What RFC 8259 requires escaped in a string: the quote, the backslash and C0.
    private static func escape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "\"": return "\\\""
        case "\\": return "\\\\"
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        case _ where scalar.value < 0x20: return String(format: "\\u%04x", scalar.value)
        default: return nil
        }
    }
}
