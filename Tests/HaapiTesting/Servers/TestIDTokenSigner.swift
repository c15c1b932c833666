import Crypto
import Foundation
import OAuthCore

/// The ID-token signing key of the tests' OpenID Providers (``TestOpenIDProvider`` and the
/// ``PlaybackServer``), so that every ID token they issue verifies against the key set they publish.
public enum TestIDTokenSigner {
    /// The ES256 private key.
    public static let key = P256.Signing.PrivateKey()
    /// Its `kid`.
    public static let keyID = "es-1"
    /// Its public JWK, as published at `jwks_uri`.
    public static let publicJWK = JWSSigningKey.es256(key, keyID: keyID).publicJWK!
    /// A JWK Set holding only ``publicJWK``.
    public static let keySetJSON = String(decoding: (try? JSONValue.encodeSorted(["keys": [publicJWK]])) ?? Data(), as: UTF8.self)

    /// `claims` as a compact JWS signed with ``key``.
    public static func sign(_ claims: [String: JSONValue]) -> String {
        sign(JSONValue.object(claims).serialized(), with: .es256(key, keyID: keyID))
    }

    /// `payload` signed with `key` as an ES256 JWT (`alg` ES256, `typ` JWT).
    public static func sign(_ payload: Data, with key: JWSSigningKey) -> String {
        try! CompactJWS.sign(payload: payload, header: JOSEHeader(algorithm: .es256, typ: "JWT"), key: key)
    }

    /// The `at_hash` of an access token for an ES256 or RS256 ID token (OpenID Connect Core
    /// §3.1.3.6), computed independently of the client's code.
    public static func accessTokenHash(_ token: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Data(token.utf8))).prefix(16))
    }
}
