import Crypto
import CryptoExtras
import Foundation
import OAuthCore
import Testing

@Suite("JWS verification against published examples")
struct PublishedJWSTests {
    @Test(arguments: ["A.1", "A.2", "A.3", "A.4"])
    func rfc7515Examples(section: String) throws {
        let example = try #require(try vectors("rfc7515")[section])
        let jws = try CompactJWS(try example.string("jws"))
        try jws.verify(with: try JWSVerificationKey(jwk: try example.jwk()))
        if section == "A.4" {
            #expect(String(decoding: jws.payload, as: UTF8.self) == "Payload")
        } else {
            let claims = try JWTClaims(json: jws.payload)
            #expect(claims.issuer == "joe")
            #expect(claims.all["http://example.com/is_root"] == .bool(true))
        }
    }

    @Test(arguments: ["4.1", "4.3", "4.4"])
    func rfc7520Examples(section: String) throws {
        let file = try vectors("rfc7520")
        let example = try #require(file[section])
        let jws = try CompactJWS(try example.string("jws"))
        try jws.verify(with: try JWSVerificationKey(jwk: try example.jwk()))
        #expect(String(decoding: jws.payload, as: UTF8.self) == (try file.string("payload")))
    }

    @Test func rfc8037EdDSAExample() throws {
        let example = try #require(try vectors("rfc8037")["A.4"])
        let jws = try CompactJWS(try example.string("jws"))
        try jws.verify(with: try JWSVerificationKey(jwk: try example.jwk()))
        #expect(String(decoding: jws.payload, as: UTF8.self) == (try example.string("payload")))
    }

    @Test func signingReproducesDeterministicExamples() throws {
        // HS256, RS256 (PKCS#1 v1.5) and Ed25519 signatures are deterministic, so signing the
        // RFC's input with the RFC's key must give the RFC's signature byte for byte.
        for (file, section) in [("rfc7515", "A.1"), ("rfc7515", "A.2"), ("rfc8037", "A.4"), ("rfc7520", "4.4")] {
            let example = try #require(try vectors(file)[section])
            let compact = try example.string("jws")
            let key = try JWSSigningKey(jwk: try example.jwk())
            let input = compact.split(separator: ".")[0...1].joined(separator: ".")
            let signature = try key.sign(Data(input.utf8))
            #expect(Base64URL.encode(signature) == String(compact.split(separator: ".")[2]), "\(file) \(section)")
        }
    }

    @Test func rfc7638Thumbprint() throws {
        let file = try vectors("rfc7638")
        let jwk = try file.jwk()
        #expect(String(decoding: try jwk.thumbprintInput(), as: UTF8.self) == (try file.string("canonical_json")))
        #expect(try jwk.thumbprint() == (try file.string("thumbprint")))
    }

    @Test func rfc8037Thumbprint() throws {
        let example = try #require(try vectors("rfc8037")["A.3"])
        #expect(try example.jwk().thumbprint() == (try example.string("thumbprint")))
    }

    @Test func rfc9449KeyThumbprint() throws {
        let file = try vectors("rfc9449")
        #expect(try file.jwk().thumbprint() == (try file.string("jkt")))
    }
}

@Suite("JWS rejections")
struct JWSRejectionTests {
    let key = P256.Signing.PrivateKey()

    func signed(_ claims: JSONValue = ["sub": "alice"]) throws -> String {
        try CompactJWS.sign(payload: claims.serialized(), header: JOSEHeader(algorithm: .es256), key: .es256(key))
    }

    @Test func algNoneIsRefused() throws {
        let example = try #require(try vectors("rfc7515")["A.5"])
        let jws = try CompactJWS(try example.string("jws"))
        expectJOSE(.algorithmNone) { try jws.verify(with: JWSVerificationKey(key.publicKey)) }
        // Whatever the case of "none", and even with a signature attached.
        let header = Base64URL.encode(Data(#"{"alg":"NoNe"}"#.utf8))
        let forged = try CompactJWS("\(header).\(Base64URL.encode(Data("{}".utf8))).AAAA")
        expectJOSE(.algorithmNone) { try forged.verify(with: JWSVerificationKey(hmacSecret: Data(count: 32))) }
    }

    @Test func hmacWithAPublicKeyAsSecretIsRefused() throws {
        // The classic confusion attack: HS256 signed with the RSA public key's bytes as the secret.
        let rsa = try #require(try vectors("rfc7515")["A.2"])
        let publicJWK = try rsa.jwk().publicKey
        let secret = try JSONValue.encodeSorted(publicJWK)
        let forged = try CompactJWS.sign(
            payload: Data(#"{"sub":"admin"}"#.utf8), header: JOSEHeader(algorithm: .hs256),
            key: .hs256(secret: secret))
        let rsaKey = try JWSVerificationKey(jwk: publicJWK)
        expectJOSE(.algorithmKeyMismatch) { try CompactJWS(forged).verify(with: rsaKey) }
        expectJOSE(.unknownKey) { try CompactJWS(forged).verify(with: JWKSet(keys: [publicJWK])) }
        // The same with an EC key.
        let ecKey = JWSVerificationKey(key.publicKey)
        expectJOSE(.algorithmKeyMismatch) { try CompactJWS(forged).verify(with: ecKey) }
    }

    @Test func wrongKeyTypeIsRefused() throws {
        let token = try signed()
        let rsa = try JWSVerificationKey(jwk: try #require(try vectors("rfc7515")["A.2"]).jwk())
        expectJOSE(.algorithmKeyMismatch) { try CompactJWS(token).verify(with: rsa) }
        expectJOSE(.algorithmKeyMismatch) { try CompactJWS(token).verify(with: JWSVerificationKey(hmacSecret: Data(count: 32))) }
        // A JWK whose alg says RS256 cannot verify PS256, even though the key type fits.
        var jwk = try #require(try vectors("rfc7515")["A.2"]).jwk().publicKey
        jwk.alg = "RS256"
        let restricted = try JWSVerificationKey(jwk: jwk)
        let ps = try CompactJWS.sign(
            payload: Data("{}".utf8), header: JOSEHeader(algorithm: .ps256),
            key: JWSSigningKey(jwk: try #require(try vectors("rfc7515")["A.2"]).jwk(), algorithm: .ps256))
        expectJOSE(.algorithmKeyMismatch) { try CompactJWS(ps).verify(with: restricted) }
    }

    @Test func tamperingIsDetected() throws {
        let parts = try signed().split(separator: ".").map(String.init)
        let otherPayload = Base64URL.encode(Data(#"{"sub":"mallory"}"#.utf8))
        expectJOSE(.invalidSignature) {
            try CompactJWS("\(parts[0]).\(otherPayload).\(parts[2])").verify(with: JWSVerificationKey(key.publicKey))
        }
        expectJOSE(.invalidSignature) {
            try CompactJWS(try signed()).verify(with: JWSVerificationKey(P256.Signing.PrivateKey().publicKey))
        }
        // A signature of the wrong length is an invalid signature, not a crash.
        expectJOSE(.invalidSignature) {
            try CompactJWS("\(parts[0]).\(parts[1]).AAAA").verify(with: JWSVerificationKey(key.publicKey))
        }
    }

    @Test func malformedInputIsRefused() throws {
        let token = try signed()
        let parts = token.split(separator: ".").map(String.init)
        expectJOSE(.malformed) { _ = try CompactJWS("\(parts[0]).\(parts[1])") }
        expectJOSE(.malformed) { _ = try CompactJWS(token + ".extra") }
        expectJOSE(.malformed) { _ = try CompactJWS("") }
        expectJOSE(.malformed) { _ = try CompactJWS("..") }
        expectJOSE(.invalidBase64URL) { _ = try CompactJWS("\(parts[0])=.\(parts[1]).\(parts[2])") }
        expectJOSE(.invalidBase64URL) { _ = try CompactJWS("\(parts[0]).\(parts[1])+/.\(parts[2])") }
        expectJOSE(.invalidBase64URL) { _ = try CompactJWS("\(parts[0]).\(parts[1]).A") }
        expectJOSE(.malformed) { _ = try CompactJWS("\(Base64URL.encode(Data("[1]".utf8))).\(parts[1]).\(parts[2])") }
        expectJOSE(.malformed) { _ = try CompactJWS("\(Base64URL.encode(Data("not json".utf8))).\(parts[1]).\(parts[2])") }
        expectJOSE(.malformed) { _ = try CompactJWS("\(Base64URL.encode(Data(#"{"alg":5}"#.utf8))).\(parts[1]).\(parts[2])") }
        expectJOSE(.unsupportedAlgorithm) {
            try CompactJWS("\(Base64URL.encode(Data(#"{"alg":"XS999"}"#.utf8))).\(parts[1]).\(parts[2])").verify(
                with: JWSVerificationKey(key.publicKey))
        }
        // Truncation anywhere gives a typed error, never a crash.
        for length in stride(from: 0, to: token.count, by: 7) {
            do {
                try CompactJWS(String(token.prefix(length))).verify(with: JWSVerificationKey(key.publicKey))
                Issue.record("a truncated token of \(length) characters verified")
            } catch is JOSEError {}
        }
    }

    @Test func oversizedInputIsRefusedBeforeParsing() {
        let huge = String(repeating: "A", count: CompactJWS.defaultMaximumLength + 1)
        expectJOSE(.tooLarge) { _ = try CompactJWS(huge + "." + huge + "." + huge) }
        expectJOSE(.tooLarge) { _ = try CompactJWS("a.b.c", maximumLength: 4) }
    }

    @Test func unknownCriticalHeaderIsRefused() throws {
        let header = Base64URL.encode(Data(#"{"alg":"ES256","crit":["exp"],"exp":1}"#.utf8))
        expectJOSE(.unsupportedCriticalHeader) { _ = try CompactJWS("\(header).e30.AAAA") }
    }

    @Test func allowedAlgorithmsAreEnforced() throws {
        expectJOSE(.algorithmNotAllowed) {
            try CompactJWS(try signed()).verify(with: JWSVerificationKey(key.publicKey), allowedAlgorithms: [.rs256])
        }
    }

    @Test func invalidKeysAreRefused() {
        expectJOSE(.invalidKey) { _ = try JWSVerificationKey(jwk: JWK(kty: "EC", crv: "P-256", x: "AAAA", y: "AAAA")) }
        expectJOSE(.invalidBase64URL) { _ = try JWSVerificationKey(jwk: JWK(kty: "EC", crv: "P-256", x: "!!", y: "AAAA")) }
        expectJOSE(.invalidKey) { _ = try JWSVerificationKey(jwk: JWK(kty: "EC", crv: "P-256", x: "AAAA")) }
        expectJOSE(.unsupportedKeyType) { _ = try JWSVerificationKey(jwk: JWK(kty: "EC", crv: "secp256k1", x: "AA", y: "AA")) }
        expectJOSE(.unsupportedKeyType) { _ = try JWSVerificationKey(jwk: JWK(kty: "PQC")) }
        expectJOSE(.invalidKey) { _ = try JWSVerificationKey(jwk: JWK(kty: "RSA", n: "AQAB", e: "AQAB")) }
        expectJOSE(.invalidKey) { _ = try JWSSigningKey.hs256(secret: Data(count: 16)) }
        expectJOSE(.malformed) { _ = try JWK(json: Data("[]".utf8)) }
        // A point not on the curve.
        let bogus = Base64URL.encode(Data(repeating: 1, count: 32))
        expectJOSE(.invalidKey) { _ = try JWSVerificationKey(jwk: JWK(kty: "EC", crv: "P-256", x: bogus, y: bogus)) }
    }

    /// A private JWK whose `d` is not the private key of its public members is refused, on
    /// every curve: it would sign for another key than the one it publishes.
    @Test func aPrivateJWKWhosePrivateKeyIsNotItsPublicKeysIsRefused() throws {
        let pairs: [(JWSSigningKey, JWSSigningKey)] = [
            (.es256(P256.Signing.PrivateKey()), .es256(P256.Signing.PrivateKey())),
            (.es384(P384.Signing.PrivateKey()), .es384(P384.Signing.PrivateKey())),
            (.es512(P521.Signing.PrivateKey()), .es512(P521.Signing.PrivateKey())),
            (.edDSA(Curve25519.Signing.PrivateKey()), .edDSA(Curve25519.Signing.PrivateKey())),
        ]
        for (key, other) in pairs {
            var forged = try #require(key.privateJWK)
            forged.d = try #require(other.privateJWK?.d)
            expectJOSE(.invalidKey) { _ = try JWSSigningKey(jwk: forged) }
            let kept = try JWSSigningKey(jwk: try #require(key.privateJWK))
            #expect(kept.publicJWK == key.publicJWK, "\(key.algorithm): a consistent private JWK is read back as the same key")
        }
    }
}

@Suite("JWS signing, JWK sets and JWT claims")
struct JWSRoundTripTests {
    @Test func everyAlgorithmRoundTrips() throws {
        let rsaJWK = try #require(try vectors("rfc7515")["A.2"]).jwk()
        let keys: [JWSSigningKey] = [
            .es256(P256.Signing.PrivateKey()), .es384(P384.Signing.PrivateKey()), .es512(P521.Signing.PrivateKey()),
            .edDSA(Curve25519.Signing.PrivateKey()), try .hs256(secret: Data(repeating: 7, count: 32)),
            try JWSSigningKey(jwk: rsaJWK, algorithm: .rs256), try JWSSigningKey(jwk: rsaJWK, algorithm: .ps256),
        ]
        #expect(Set(keys.map(\.algorithm)) == Set(JWSAlgorithm.allCases))
        for key in keys {
            let token = try CompactJWS.sign(payload: Data(#"{"n":1}"#.utf8), header: JOSEHeader(algorithm: key.algorithm), key: key)
            let verifier = try JWSVerificationKey(jwk: try #require(key.algorithm == .hs256 ? key.privateJWK : key.publicJWK))
            try CompactJWS(token).verify(with: verifier)
            #expect(try CompactJWS(token).algorithm() == key.algorithm)
        }
    }

    @Test func pemKeysSign() throws {
        let ec = P256.Signing.PrivateKey()
        let key = try JWSSigningKey(pem: ec.pemRepresentation, algorithm: .es256, keyID: "k1")
        let token = try CompactJWS.sign(payload: Data("{}".utf8), header: JOSEHeader(algorithm: .es256), key: key)
        #expect(try CompactJWS(token).header.kid == "k1")
        try CompactJWS(token).verify(with: JWSVerificationKey(ec.publicKey))
        expectJOSE(.invalidKey) {
            _ = try JWSSigningKey(pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----", algorithm: .es256)
        }
        expectJOSE(.algorithmKeyMismatch) { _ = try JWSSigningKey(pem: ec.pemRepresentation, algorithm: .hs256) }
        // Ed25519 PEM is read by our own DER reader (CryptoKit has no PEM for it): swift-crypto's encoding.
        let ed = Curve25519.Signing.PrivateKey()
        let edKey = try JWSSigningKey(pem: ed.pemRepresentation, algorithm: .edDSA)
        #expect(edKey.publicJWK?.x == Base64URL.encode(ed.publicKey.rawRepresentation))
        expectJOSE(.invalidKey) { _ = try JWSSigningKey(pem: ec.pemRepresentation, algorithm: .edDSA) }
    }

    @Test func keySetSelectsByKeyID() throws {
        let first = P256.Signing.PrivateKey()
        let second = P256.Signing.PrivateKey()
        var firstJWK = try #require(JWSSigningKey.es256(first).publicJWK)
        firstJWK.kid = "one"
        var secondJWK = try #require(JWSSigningKey.es256(second).publicJWK)
        secondJWK.kid = "two"
        let document =
            Data(#"{"keys":[{"kty":"unknown-type"},"#.utf8)
            + (try JSONValue.encodeSorted(firstJWK)) + Data(",".utf8) + (try JSONValue.encodeSorted(secondJWK)) + Data("]}".utf8)
        let set = try JWKSet(json: document)
        #expect(set.keys.count == 2)
        let token = try CompactJWS.sign(payload: Data("{}".utf8), header: JOSEHeader(algorithm: .es256), key: .es256(second, keyID: "two"))
        try CompactJWS(token).verify(with: set)
        let mislabelled = try CompactJWS.sign(
            payload: Data("{}".utf8), header: JOSEHeader(algorithm: .es256), key: .es256(second, keyID: "one"))
        expectJOSE(.invalidSignature) { try CompactJWS(mislabelled).verify(with: set) }
        let unknown = try CompactJWS.sign(
            payload: Data("{}".utf8), header: JOSEHeader(algorithm: .es256), key: .es256(second, keyID: "three"))
        expectJOSE(.unknownKey) { try CompactJWS(unknown).verify(with: set) }
        // Without kid, any fitting key may verify.
        let anonymous = try CompactJWS.sign(payload: Data("{}".utf8), header: JOSEHeader(algorithm: .es256), key: .es256(second))
        try CompactJWS(anonymous).verify(with: set)
        expectJOSE(.malformed) { _ = try JWKSet(json: Data(#"{"no":"keys"}"#.utf8)) }
    }

    @Test func claimsValidation() throws {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        func claims(_ members: [String: JSONValue]) throws -> JWTClaims { try JWTClaims(members: members) }
        let good = try claims(["iss": "https://op", "aud": ["a", "b"], "exp": .integer(1_700_000_300), "iat": .integer(1_699_999_990)])
        try good.validate(JWTValidationOptions(now: now, issuer: "https://op", audience: "b"))
        #expect(good.audience == ["a", "b"])
        expectJOSE(.issuerMismatch) { try good.validate(JWTValidationOptions(now: now, issuer: "https://other")) }
        expectJOSE(.audienceMismatch) { try good.validate(JWTValidationOptions(now: now, audience: "c")) }
        // exp with skew: 30 s past is accepted with 60 s skew, refused with 10 s.
        let expired = try claims(["exp": .integer(1_699_999_970)])
        try expired.validate(JWTValidationOptions(now: now, clockSkew: 60))
        expectJOSE(.expired) { try expired.validate(JWTValidationOptions(now: now, clockSkew: 10)) }
        expectJOSE(.notYetValid) {
            try claims(["exp": .integer(1_700_001_000), "nbf": .integer(1_700_000_100)]).validate(JWTValidationOptions(now: now))
        }
        expectJOSE(.invalidIssuedAt) {
            try claims(["exp": .integer(1_700_001_000), "iat": .integer(1_700_000_100)]).validate(JWTValidationOptions(now: now))
        }
        expectJOSE(.invalidIssuedAt) {
            try claims(["exp": .integer(1_700_001_000), "iat": .integer(1_699_990_000)]).validate(
                JWTValidationOptions(now: now, maximumAge: 300))
        }
        expectJOSE(.missingClaim) { try claims([:]).validate(JWTValidationOptions(now: now)) }
        expectJOSE(.invalidClaim) { _ = try claims(["exp": "tomorrow"]) }
        expectJOSE(.invalidClaim) { _ = try claims(["aud": ["a", 1]]) }
        expectJOSE(.invalidClaim) { _ = try claims(["iss": 7]) }
    }

    @Test func verifiedJWTChecksSignatureThenClaims() throws {
        let key = P256.Signing.PrivateKey()
        let now = Date()
        let token = try CompactJWS.sign(
            payload: JSONValue.object(["iss": "me", "exp": .integer(Int(now.timeIntervalSince1970) + 60)]).serialized(),
            header: JOSEHeader(algorithm: .es256, typ: "JWT"), key: .es256(key))
        let jwt = try VerifiedJWT(token, key: JWSVerificationKey(key.publicKey), options: JWTValidationOptions(issuer: "me"))
        #expect(jwt.claims.issuer == "me")
        expectJOSE(.invalidSignature) { _ = try VerifiedJWT(token, key: JWSVerificationKey(P256.Signing.PrivateKey().publicKey)) }
    }
}

@Suite("base64url")
struct Base64URLTests {
    @Test func matchesFoundationForEveryLengthAndByte() {
        for length in 0..<70 {
            let bytes = Data((0..<length).map { UInt8(($0 * 37 + length * 11) % 256) })
            let expected = bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == expected)
            #expect(Base64URL.decode(expected) == bytes)
        }
        #expect(Base64URL.encode(Data([0xfb, 0xff, 0xfe])) == "-__-")
    }

    @Test func decodingIsStrict() {
        for bad in ["A", "AB=", "A+B/", "AB CD", "ÅB", "AB\n"] { #expect(Base64URL.decode(bad) == nil, "\(bad)") }
    }
}
