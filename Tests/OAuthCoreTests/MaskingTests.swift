import Foundation
import OAuthCore
import Testing

@Suite("Masking")
struct MaskingTests {
    /// Runs `body` with masking on or off for it alone (the global setting stays as it is).
    func with(masking: Bool, _ body: () throws -> Void) async rethrows {
        try await HaapiLogger.withScope(HaapiLoggerScope(followUpTags: [], sinks: [], isSensitiveValueMasked: masking)) { try body() }
    }

    let token = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl"
    let url = URL(string: "https://idsvr.example/oauth/token/cat?client_id=app#frag")!
    let request: TransportRequest = {
        var request = TransportRequest(method: "POST", url: URL(string: "https://idsvr.example/oauth/token")!, body: Data("code=c0de".utf8))
        request.headers["Content-Type"] = "application/x-www-form-urlencoded"
        request.headers["Authorization"] = "Basic c2VjcmV0"
        request.headers["DPoP"] = "proof"
        return request
    }()

    @Test func maskedWhileMaskingIsOn() async {
        await with(masking: true) {
            #expect("secret".masked == "*****")
            #expect(token.maskedPrefix == "eyJh*****")
            #expect("abcdefghijkl".maskedPrefix == "abc*****")
            #expect("abc".maskedPrefix == "*****")
            #expect(url.masked == "*****/cat")
            #expect(URL(string: "https://idsvr.example")!.masked == "*****")
            #expect(Data("hi".utf8).masked == "***** (2 bytes)")
            #expect(["state": "s-1", "code": "c0de"].masked == "[code: *****, state: *****]")
            #expect(["nested": ["a": "b"]].masked == "[nested: [a: *****]]")
            #expect(
                request.masked
                    == "POST *****/token [Authorization: *****, Content-Type: application/x-www-form-urlencoded, DPoP: *****] body: ***** (9 bytes)"
            )
            #expect(NSObject().masked == "<NSObject: *****>")
            let access = AccessToken(value: token, tokenType: "DPoP", expiresAt: nil)
            #expect("\(access)" == "AccessToken(DPoP eyJh*****, expires unknown)")
        }
    }

    @Test func shownWhileMaskingIsOff() async {
        await with(masking: false) {
            #expect("secret".masked == "secret" && token.maskedPrefix == token)
            #expect(url.masked == url.absoluteString)
            #expect(Data("hi".utf8).masked == "hi")
            #expect(Data([0xff, 0xfe]).masked == "//4=")
            #expect(["state": "s-1", "code": "c0de"].masked == "[code: c0de, state: s-1]")
            #expect(
                request.masked
                    == "POST https://idsvr.example/oauth/token [Authorization: Basic c2VjcmV0, Content-Type: application/x-www-form-urlencoded, DPoP: proof] body: code=c0de"
            )
            #expect(!NSObject().masked.contains("*****"))
        }
    }

    @Test func stringAndDataHelpers() {
        // SHA-256 of "abc" (FIPS 180-2's example).
        #expect("abc".sha256Hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect("abc"[...].base64URLEncodedStringOfSHA256Hash == "ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0")
        #expect("é".dataUtf8Encoding == Data([0xc3, 0xa9]))
        #expect(Data([0xc3, 0xa9]).stringUtf8Encoding == "é" && Data([0xff]).stringUtf8Encoding == nil)
        #expect(String.optionalData(nil, fallback: "<empty>") == "<empty>")
        #expect(String.optionalData(Data([0xff]), fallback: "?") == "?")
        #expect(String.optionalData(Data("ok".utf8)) == "ok")
        #expect(String.optionalData(Data([0xe9]), encoding: .isoLatin1) == "é")
    }
}
