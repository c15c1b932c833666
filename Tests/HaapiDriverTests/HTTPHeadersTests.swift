import Foundation
import HaapiDevServer
import HaapiDriver
import OAuthCore
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking

    // Foundation's URLRequest gets Curity's helpers on Apple platforms; here the tests give it the
    // same conformance, so the helpers are tested on the type apps call them on.
    extension URLRequest: HTTPHeaderSettable {}
#endif

@Suite("HTTP header helpers")
struct HTTPHeadersTests {
    let url = URL(string: "https://api.example/wallet/devices?x=1")!

    /// A DPoP-bound token and its key, with a nonce.
    func info(type: String = "DPoP", nonce: String? = "n-1") throws -> DpopAccessTokenInfo {
        DpopAccessTokenInfo(
            accessToken: AccessToken(value: "token-value", tokenType: type, expiresAt: Date().addingTimeInterval(300)), dpop: try Dpop(),
            dpopNonce: nonce)
    }

    /// Runs the same checks on any request type that has the helpers.
    func checkHelpers<Request: HTTPHeaderSettable>(_ request: Request) async throws {
        var request = request
        request.addAuthorizationHeader(headerValue: "Bearer a")
        request.addAuthorizationHeader(headerValue: "Bearer b")
        #expect(request.value(forHTTPHeaderField: "authorization") == "Bearer b")
        request.addClientInfoHeader(headerValue: "wallet-ios/1.2")
        #expect(request.value(forHTTPHeaderField: HttpHeaderNames.clientInfo) == "wallet-ios/1.2")
        request.addHaapiMediaTypeAcceptHeader()
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/vnd.auth+json")
        request.addHaapiSessionIdHeader("s-42")
        #expect(request.value(forHTTPHeaderField: "Session-Id") == "s-42")
        request.addDpopHeader(headerValue: "proof")
        #expect(request.value(forHTTPHeaderField: "DPoP") == "proof")

        // The token and a proof of its key, for this method and URL, with its hash and the nonce.
        let bound = try info()
        try request.addDpopAccessTokenHeaders(from: bound, httpMethod: "PUT", url: url)
        #expect(request.value(forHTTPHeaderField: HttpHeaderNames.authorization) == "DPoP token-value")
        let proof = try #require(request.value(forHTTPHeaderField: HttpHeaderNames.dpop))
        let checked = try await DPoPProofVerifier().verify(
            proof, method: "PUT", url: url, accessToken: "token-value", expectedNonce: "n-1", boundThumbprint: bound.dpop.jwkThumbprint
        ) { _, _, _ in true }
        #expect(checked.thumbprint == bound.dpop.jwkThumbprint)

        // A bearer token gets no proof.
        var plain = request
        plain.setValue(nil, forHTTPHeaderField: HttpHeaderNames.dpop)
        try plain.addDpopAccessTokenHeaders(from: try info(type: "Bearer"), httpMethod: "GET", url: url)
        #expect(plain.value(forHTTPHeaderField: HttpHeaderNames.authorization) == "Bearer token-value")
        #expect(plain.value(forHTTPHeaderField: HttpHeaderNames.dpop) == nil)
    }

    @Test func helpersOnATransportRequest() async throws {
        try await checkHelpers(TransportRequest(url: url))
    }

    #if canImport(FoundationNetworking)
        @Test func helpersOnAURLRequest() async throws {
            try await checkHelpers(URLRequest(url: url))
        }
    #endif

    @Test func namesAndMediaTypes() {
        #expect(
            [
                HttpHeaderNames.accept, HttpHeaderNames.contentType, HttpHeaderNames.dpopNonce, HttpHeaderNames.haapiSetSessionId,
                HttpHeaderNames.wwwAuthenticate,
            ]
                == ["Accept", "Content-Type", "DPoP-Nonce", "Set-Session-Id", "WWW-Authenticate"])
        #expect(MimeTypes.happi.rawValue == "application/vnd.auth+json" && MimeTypes.json.rawValue == "application/json")
        #expect(MimeTypes.xWwwFormUrlEncoded.rawValue == "application/x-www-form-urlencoded")
        #expect(Haapi.isSupported)
    }

    @Test func responseHeaders() {
        let response = TransportResponse(status: 200, headers: ["set-session-id": "s-9", "dpop-nonce": "n-2"], url: url)
        #expect(response.haapiSessionId() == "s-9" && response.dpopNonce() == "n-2")
        #expect(response.value(forHTTPHeaderField: "Set-Session-Id") == "s-9" && response.statusCode == 200)
        #expect(response.canonicalHeaderFields == ["Set-Session-Id": "s-9", "Dpop-Nonce": "n-2"])
        let bare = TransportResponse(status: 204, url: url)
        #expect(bare.haapiSessionId() == nil && bare.dpopNonce() == nil)
    }

    @Test func proofsOfDpop() async throws {
        let dpop = try Dpop()
        // The nonce given, else none (this key has been sent none).
        let withNonce = try dpop.getHeaderValue(httpMethod: "POST", url: url, nonce: "n-3", accessToken: "at")
        _ = try await DPoPProofVerifier().verify(withNonce, method: "POST", url: url, accessToken: "at", expectedNonce: "n-3") { _, _, _ in
            true
        }
        let plain = try dpop.createProof(httpMethod: "GET", url: url)
        let payload = try JSONValue(parsing: try CompactJWS(plain).payload)
        #expect(payload["nonce"] == nil && payload["ath"] == nil && payload["htm"] == "GET")
        #expect(dpop.jwkThumbprint == dpop.thumbprint)
    }
}
