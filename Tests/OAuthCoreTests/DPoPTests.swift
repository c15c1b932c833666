import Crypto
import Foundation
import HaapiTesting
import OAuthCore
import Testing

@Suite("DPoP proofs (RFC 9449)")
struct DPoPProofTests {
    struct Decoded {
        let jws: CompactJWS
        let claims: [String: JSONValue]
    }

    func decode(_ proof: String) throws -> Decoded {
        let jws = try CompactJWS(proof)
        return Decoded(jws: jws, claims: try #require(try JSONValue(parsing: jws.payload).objectValue))
    }

    @Test func proofHasTheShapeOfRFC9449() throws {
        let dpop = try Dpop()
        let proof = try decode(try dpop.proof(method: "post", url: URL(string: "https://Server.Example.com/token?x=1#frag")!))
        #expect(proof.jws.header.typ == "dpop+jwt")
        #expect(proof.jws.header.alg == "ES256")
        let jwk = try #require(proof.jws.header.jwk)
        #expect(jwk.d == nil && jwk.kid == nil && jwk.kty == "EC" && jwk.crv == "P-256")
        #expect(try jwk.thumbprint() == dpop.thumbprint)
        // The proof verifies with the key it carries, as a server checks it.
        try proof.jws.verify(with: JWSVerificationKey(jwk: jwk), allowedAlgorithms: [.es256])
        #expect(proof.claims["htm"] == "POST")
        #expect(proof.claims["htu"] == "https://server.example.com/token")
        let iat = try #require(proof.claims["iat"]?.intValue)
        #expect(abs(Double(iat) - Date().timeIntervalSince1970) < 5)
        #expect(proof.claims["ath"] == nil)
        #expect(proof.claims["nonce"] == nil)
        #expect((proof.claims["jti"]?.stringValue?.count ?? 0) >= 16)
        #expect(Set(proof.claims.keys) == ["jti", "htm", "htu", "iat"])
    }

    @Test func jtiIsUniquePerProof() throws {
        let dpop = try Dpop()
        let url = URL(string: "https://as.example/token")!
        let ids = try (0..<200).map { _ in try decode(try dpop.proof(method: "POST", url: url)).claims["jti"] }
        #expect(Set(ids).count == 200)
    }

    @Test func athMatchesRFC9449Example() throws {
        let example = try #require(try vectors("rfc9449")["7.1"])
        let accessToken = try example.string("access_token")
        let expected = try #require(example["payload"]?["ath"]?.stringValue)
        let proof = try decode(try Dpop().proof(method: "GET", url: URL(string: try example.string("htu"))!, accessToken: accessToken))
        #expect(proof.claims["ath"]?.stringValue == expected)
    }

    @Test func publishedProofsAreReadableAndVerify() throws {
        // The RFC's own proofs pass our parser and verifier with the key they embed.
        let file = try vectors("rfc9449")
        for section in ["4.1", "5.refresh", "7.1"] {
            let jws = try CompactJWS(try #require(file[section]).string("jwt"))
            #expect(jws.header.typ == "dpop+jwt")
            try jws.verify(with: JWSVerificationKey(jwk: try #require(jws.header.jwk)))
            #expect(try #require(jws.header.jwk).thumbprint() == (try file.string("jkt")))
        }
    }

    @Test func htuKeepsOnlySchemeHostPortAndPath() {
        let cases = [
            ("HTTPS://Example.COM:443/a/b?x=1#f", "https://example.com/a/b"),
            ("http://127.0.0.1:4593/api/oidc/token?x", "http://127.0.0.1:4593/api/oidc/token"),
            ("http://example.com:80", "http://example.com/"),
            ("https://example.com:8443/p%20q/", "https://example.com:8443/p%20q/"),
            ("https://user:pw@example.com/x", "https://example.com/x"),
        ]
        for (input, expected) in cases {
            #expect(URL(string: input)!.dpopHTU == expected, "\(input)")
        }
    }

    @Test(arguments: [CryptoKeyType.p256, .p384, .p521, .ed25519])
    func everyKeyTypeMakesVerifiableProofs(keyType: CryptoKeyType) throws {
        let dpop = try Dpop(keyType: keyType)
        let jws = try CompactJWS(try dpop.proof(method: "GET", url: URL(string: "https://rs.example/r")!))
        #expect(try jws.algorithm() == keyType.algorithm)
        try jws.verify(with: JWSVerificationKey(jwk: try #require(jws.header.jwk)))
    }

    @Test func unavailableOrUnfitKeysAreTypedErrors() throws {
        #expect(throws: DPoPError.self) { _ = try Dpop(keyType: .secureEnclave) }
        do {
            _ = try Dpop(signingKey: .hs256(secret: Data(count: 32)))
            Issue.record("an HMAC key was accepted for DPoP")
        } catch let error as DPoPError {
            #expect(error.code == .keyCreationFailed)
            #expect(error.recoverySuggestion == .unrecoverable(action: .invalidPlatform))
        }
    }

    @Test func keySurvivesARestore() throws {
        let dpop = try Dpop()
        let restored = try Dpop(privateJWK: try #require(dpop.signingKey.privateJWK))
        #expect(restored.thumbprint == dpop.thumbprint)
        #expect(throws: DPoPError.self) { _ = try Dpop(privateJWK: JWK(kty: "EC", crv: "P-256", x: "AA", y: "AA", d: "AA")) }
    }

    @Test func explicitAndLearnedNonces() throws {
        let dpop = try Dpop()
        let url = URL(string: "https://as.example/token")!
        #expect(try decode(try dpop.proof(method: "POST", url: url, nonce: "given")).claims["nonce"] == "given")
        dpop.nonces.learn(from: TransportResponse(status: 200, headers: ["DPoP-Nonce": "learned"], url: url))
        #expect(try decode(try dpop.proof(method: "POST", url: URL(string: "https://as.example:443/other")!)).claims["nonce"] == "learned")
        // Nonces are per origin.
        #expect(try decode(try dpop.proof(method: "POST", url: URL(string: "https://rs.example/api")!)).claims["nonce"] == nil)
        #expect(try decode(try dpop.proof(method: "POST", url: URL(string: "http://as.example/token")!)).claims["nonce"] == nil)
    }
}

@Suite("DPoP nonce retry")
struct DPoPNonceRetryTests {
    let tokenURL = URL(string: "https://as.example/token")!

    func nonce(of request: TransportRequest) throws -> String? {
        let proof = try CompactJWS(try #require(request.headers["DPoP"]))
        return try JSONValue(parsing: proof.payload)["nonce"]?.stringValue
    }

    @Test func tokenEndpointChallengeIsRetriedOnceWithTheNewNonce() async throws {
        let transport = ScriptedTransport([
            json(400, #"{"error":"use_dpop_nonce","error_description":"need nonce"}"#, headers: ["DPoP-Nonce": "n-1"]),
            json(200, #"{"access_token":"at","token_type":"DPoP","expires_in":60}"#),
        ])
        let dpop = try Dpop()
        let response = try await dpop.send(using: transport) { .form(tokenURL, parameters: [("grant_type", "client_credentials")]) }
        #expect(response.status == 200)
        #expect(transport.sent.count == 2)
        #expect(try nonce(of: transport.sent[0]) == nil)
        #expect(try nonce(of: transport.sent[1]) == "n-1")
    }

    @Test func resourceChallengeIsRetriedOnceWithAth() async throws {
        let api = URL(string: "https://rs.example/api?q=1")!
        let transport = ScriptedTransport([
            { request in
                TransportResponse(
                    status: 401,
                    headers: ["WWW-Authenticate": #"DPoP error="use_dpop_nonce", error_description="fresh""#, "DPoP-Nonce": "r-1"],
                    url: request.url)
            },
            json(200, "{}"),
        ])
        let middleware = DPoPTransport(base: transport, dpop: try Dpop())
        let response = try await middleware.send(TransportRequest(url: api, headers: ["Authorization": "DPoP token-123"]))
        #expect(response.status == 200)
        #expect(transport.sent.count == 2)
        let proof = try JSONValue(parsing: try CompactJWS(try #require(transport.sent[1].headers["DPoP"])).payload)
        #expect(proof["nonce"] == "r-1")
        #expect(proof["ath"]?.stringValue == Base64URL.encode(SHA256.hash(data: Data("token-123".utf8))))
        #expect(proof["htu"] == "https://rs.example/api")
    }

    @Test func endlessChallengeStopsAfterExactlyOneRetry() async throws {
        var counter = 0
        let transport = ScriptedTransport(repeating: { request in
            counter += 1
            return json(400, #"{"error":"use_dpop_nonce"}"#, headers: ["DPoP-Nonce": "n-\(counter)"])(request)
        })
        let dpop = try Dpop()
        do {
            _ = try await dpop.send(using: transport) { .form(tokenURL, parameters: []) }
            Issue.record("an endless nonce challenge did not fail")
        } catch let error as DPoPError {
            #expect(error.code == .nonceRetryExhausted)
            #expect(error.statusCode == 400)
        }
        #expect(transport.sent.count == 2)
    }

    @Test func challengeWithoutANonceIsNotRetried() async throws {
        let transport = ScriptedTransport(repeating: json(400, #"{"error":"use_dpop_nonce"}"#))
        await #expect(throws: DPoPError.self) {
            _ = try await Dpop().send(using: transport) { .form(tokenURL, parameters: []) }
        }
        #expect(transport.sent.count == 1)
    }

    @Test func otherErrorsAreNotRetried() async throws {
        let transport = ScriptedTransport(repeating: json(400, #"{"error":"invalid_dpop_proof"}"#, headers: ["DPoP-Nonce": "x"]))
        let response = try await Dpop().send(using: transport) { .form(tokenURL, parameters: []) }
        #expect(response.status == 400)
        #expect(transport.sent.count == 1)
    }

    @Test func retryRebuildsSingleUseClientAssertions() async throws {
        let transport = ScriptedTransport([
            json(400, #"{"error":"use_dpop_nonce"}"#, headers: ["DPoP-Nonce": "n"]),
            json(200, #"{"access_token":"at","token_type":"DPoP"}"#),
        ])
        let client = TokenEndpointClient(
            endpoint: tokenURL,
            clientAuthentication: try .privateKeyJWT(clientID: "c", key: .es256(P256.Signing.PrivateKey())),
            transport: transport, dpop: try Dpop())
        let (result, _) = try await client.requestToken(.clientCredentials(scope: "read"))
        guard case .success(let tokens) = result else {
            Issue.record("no tokens: \(result)")
            return
        }
        #expect(tokens.isDPoPBound)
        let assertions = transport.sent.map { formParameters($0)["client_assertion"] }
        #expect(assertions.count == 2 && assertions[0] != nil && assertions[0] != assertions[1])
    }
}

@Suite("PKCE (RFC 7636)")
struct PKCETests {
    @Test func appendixBExample() throws {
        let example = try vectors("rfc7636")
        let pair = try PKCE(verifier: try example.string("code_verifier"))
        #expect(pair.challenge == (try example.string("code_challenge")))
        #expect(pair.method == "S256")
    }

    @Test func generatedPairsAreValidAndDistinct() throws {
        let pairs = (0..<100).map { _ in PKCE() }
        #expect(Set(pairs.map(\.verifier)).count == 100)
        for pair in pairs {
            #expect(pair.verifier.count == 43)
            #expect(try PKCE(verifier: pair.verifier).challenge == pair.challenge)
        }
    }

    @Test func invalidVerifiersAreRefused() {
        #expect(throws: PKCEError.self) { _ = try PKCE(verifier: "short") }
        #expect(throws: PKCEError.self) { _ = try PKCE(verifier: String(repeating: "a", count: 129)) }
        #expect(throws: PKCEError.self) { _ = try PKCE(verifier: String(repeating: "a", count: 42) + "+") }
        #expect(throws: Never.self) { _ = try PKCE(verifier: String(repeating: "a", count: 128)) }
    }
}

/// An external signer, as platform key stores (Secure Enclave) plug in: the package never sees its private key.
struct CountingSigner: JWSSigner {
    let key = P256.Signing.PrivateKey()
    let calls = Counter()
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func increment() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    var algorithm: JWSAlgorithm { .es256 }
    var publicJWK: JWK { JWSSigningKey.es256(key).publicJWK! }
    func sign(_ input: Data) throws -> Data {
        calls.increment()
        return try key.signature(for: input).rawRepresentation
    }
}

@Suite("External signers")
struct ExternalSignerTests {
    @Test func dpopProofsCanComeFromAnExternalSigner() throws {
        let signer = CountingSigner()
        let dpop = try Dpop(signingKey: JWSSigningKey(signer: signer))
        #expect(dpop.keyType == .p256)
        let jws = try CompactJWS(try dpop.proof(method: "GET", url: URL(string: "https://rs.example/x")!))
        try jws.verify(with: JWSVerificationKey(signer.key.publicKey))
        #expect(signer.calls.value == 1)
        #expect(dpop.signingKey.privateJWK == nil)
        #expect(dpop.thumbprint == (try JWSSigningKey.es256(signer.key).publicJWK!.thumbprint()))
    }
}

/// ``CryptoKeyType`` as Curity numbers it, and as JSON has always held it.
@Suite struct CryptoKeyTypeTests {
    @Test func itsRawValuesAreCuritysNumbers() {
        #expect(CryptoKeyType.p256.rawValue == 0 && CryptoKeyType.secureEnclave.rawValue == 1 && CryptoKeyType.security.rawValue == 2)
        #expect(CryptoKeyType(rawValue: 1) == .secureEnclave)
        #expect(Set(CryptoKeyType.allCases.map(\.rawValue)).count == CryptoKeyType.allCases.count)
    }

    @Test func jsonHoldsItsNameAndReadsCuritysNumberToo() throws {
        let written = try JSONEncoder().encode([CryptoKeyType.secureEnclave, .ed25519])
        #expect(String(decoding: written, as: UTF8.self) == #"["secureEnclave","ed25519"]"#)
        #expect(try JSONDecoder().decode([CryptoKeyType].self, from: Data(#"["p384", 1]"#.utf8)) == [.p384, .secureEnclave])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(CryptoKeyType.self, from: Data(#""p999""#.utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(CryptoKeyType.self, from: Data("42".utf8)) }
    }
}

/// A DPoP key written down and read back (`Dpop` is `Codable`, as Curity's is), so that tokens
/// bound to it stay usable after the app restarts.
@Suite struct DpopCodableTests {
    @Test(arguments: [CryptoKeyType.p256, .security, .p384, .ed25519])
    func theKeyReadBackSignsAsTheOneWritten(_ type: CryptoKeyType) throws {
        let original = try Dpop(keyType: type)
        let restored = try JSONDecoder().decode(Dpop.self, from: JSONEncoder().encode(original))
        #expect(restored.keyType == type)
        #expect(restored.thumbprint == original.thumbprint)
        // A proof of the restored key verifies with the public key of the original.
        let proof = try CompactJWS(restored.proof(method: "POST", url: URL(string: "https://as.example/token")!))
        try proof.verify(with: JWSVerificationKey(jwk: original.publicJWK), allowedAlgorithms: [type.algorithm])
    }

    @Test func aSecureEnclaveKeyIsReadOnlyWhereThereIsOne() throws {
        let written = Data(#"{"keyType":"secureEnclave","secureEnclaveKey":"AAAA"}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Dpop.self, from: written) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Dpop.self, from: Data(#"{"keyType":"p256"}"#.utf8)) }
    }
}

/// The X9.63 form of a private key, which the Security framework imports on Apple platforms
/// (`ClientAuthenticationMethodJWTAsymmetric.privateKey`): checked here against swift-crypto's
/// own reading of that form.
@Suite struct X963KeyFormTests {
    @Test func eachNISTCurveKeyReadsBackAsItself() throws {
        let p256 = P256.Signing.PrivateKey()
        let p384 = P384.Signing.PrivateKey()
        let p521 = P521.Signing.PrivateKey()
        #expect(
            try P256.Signing.PrivateKey(x963Representation: #require(JWSSigningKey.es256(p256).x963PrivateRepresentation)).rawRepresentation
                == p256.rawRepresentation)
        #expect(
            try P384.Signing.PrivateKey(x963Representation: #require(JWSSigningKey.es384(p384).x963PrivateRepresentation)).rawRepresentation
                == p384.rawRepresentation)
        #expect(
            try P521.Signing.PrivateKey(x963Representation: #require(JWSSigningKey.es512(p521).x963PrivateRepresentation)).rawRepresentation
                == p521.rawRepresentation)
        #expect(JWSSigningKey.es256(p256).x963PrivateRepresentation == p256.x963Representation)
    }

    @Test func otherKeysHaveNone() throws {
        #expect(JWSSigningKey.edDSA(Curve25519.Signing.PrivateKey()).x963PrivateRepresentation == nil)
        #expect(try JWSSigningKey.hs256(secret: Data(repeating: 7, count: 32)).x963PrivateRepresentation == nil)
    }
}
