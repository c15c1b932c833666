import Foundation
import HaapiTesting
import OAuthCore
import Testing

/// Random and mangled input must give typed errors, never a crash or an untyped error.
@Suite("Hostile input")
struct HostileInputTests {
    static let fragments = [
        "{", "}", "[", "]", "\"", ":", ",", "alg", "\"alg\"", "\"ES256\"", "\"none\"", "\"HS256\"", "kty", "\"EC\"",
        "\"RSA\"", "crv", "\"P-256\"", "x", "y", "n", "e", "\"AQAB\"", "1e999", "-0", "null", "true", "\\u0000", "\u{FFFF}",
        "access_token", "\"token_type\"", "expires_in", "\"error\"", "crit", "[\"exp\"]", "jwk", "aud", "exp", "9999999999999999999",
    ]

    func randomText(_ rng: inout SplitMix) -> String {
        (0..<Int.random(in: 0...24, using: &rng)).map { _ in Self.fragments.randomElement(using: &rng)! }.joined()
    }

    @Test func jwsParsingAndVerification() throws {
        var rng = SplitMix(state: 1)
        let key = JWSVerificationKey(hmacSecret: Data(count: 32))
        for _ in 0..<3_000 {
            let segments = (0..<Int.random(in: 1...4, using: &rng)).map { _ -> String in
                Bool.random(using: &rng) ? Base64URL.encode(Data(randomText(&rng).utf8)) : randomText(&rng)
            }
            do {
                try CompactJWS(segments.joined(separator: ".")).verify(with: key)
            } catch is JOSEError {
            } catch {
                Issue.record("untyped error \(error) for \(segments)")
            }
        }
    }

    @Test func keysAndKeySets() {
        var rng = SplitMix(state: 2)
        for _ in 0..<3_000 {
            let text = randomText(&rng)
            do { _ = try JWSVerificationKey(jwk: try JWK(json: Data(text.utf8))) } catch is JOSEError {} catch {
                Issue.record("untyped error \(error) for \(text)")
            }
            do { _ = try JWKSet(json: Data("{\"keys\":[\(text)]}".utf8)) } catch is JOSEError {} catch {
                Issue.record("untyped error \(error) for \(text)")
            }
        }
    }

    @Test func tokenResponses() {
        var rng = SplitMix(state: 3)
        let url = URL(string: "https://as.example/token")!
        for _ in 0..<3_000 {
            let status = [200, 201, 400, 401, 500, 503].randomElement(using: &rng)!
            let type = ["application/json", "text/html", "application/problem+json", "", "application/json; charset=utf-8"]
                .randomElement(using: &rng)!
            let body = "{\"access_token\":\"a\",\"token_type\":\"b\"," + randomText(&rng)
            let response = TransportResponse(status: status, headers: ["Content-Type": type], body: Data(body.utf8), url: url)
            do { _ = try TokenEndpointResponse(response) } catch is TokenEndpointError {} catch is UnexpectedResponseError {} catch {
                Issue.record("untyped error \(error) for \(body)")
            }
        }
    }
}

@Suite("JSON numbers")
struct JSONNumberTests {
    /// Found by Scripts/fuzz.sh: the Double of this text is integral, and JSONDecoder did not
    /// make an Int of it, so serializing and parsing again turned a number into an integer.
    @Test(arguments: ["888080000800000000.046", "1.0", "1e2", "-0.0", "1e300", "0.5", "123456789012345678901234"])
    func aNumberIsTheSameAfterSerializingAndParsingAgain(_ text: String) throws {
        let value = try JSONValue(parsing: Data(text.utf8))
        #expect(try JSONValue(parsing: value.serialized()) == value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) == value)
    }

    @Test func integralValuesAreIntegers() throws {
        #expect(try JSONValue(parsing: Data("888080000800000000.046".utf8)) == .integer(888_080_000_800_000_000))
        #expect(try JSONValue(parsing: Data("1e2".utf8)) == .integer(100))
        #expect(try JSONValue(parsing: Data("0.5".utf8)) == .number(0.5))
    }

    /// Issue 28, item 6: a `Retry-After` far in the future (in seconds or as a date) becomes at
    /// most a day, so no caller converts or waits an absurd number; a negative or non-finite one is ignored.
    @Test func retryAfterIsBounded() {
        func retryAfter(_ value: String) -> Double? {
            TransportResponse(status: 503, headers: ["Retry-After": value], body: Data(), url: URL(string: "https://as.example/")!)
                .retryAfterSeconds
        }
        #expect(retryAfter("1e300") == TransportResponse.longestRetryAfter)
        #expect(retryAfter("Fri, 31 Dec 9999 23:59:59 GMT") == TransportResponse.longestRetryAfter)
        #expect(retryAfter("30") == 30)
        #expect(retryAfter("1e400") == nil)
        #expect(retryAfter("-5") == nil)
        #expect(TransportResponse.longestRetryAfter == 86400)
    }
}
