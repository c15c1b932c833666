import Foundation
import HaapiDevServer
import HaapiServerTesting
import HaapiTesting
import OAuthCore
import Testing

@Suite("Development server basics")
struct DevServerTests {
    @Test func discoveryAndKeysDescribeTheRunningServer() async throws {
        try await RunningServer.with { server in
            let discovery = try JSONValue(parsing: try await server.get("/.well-known/openid-configuration").body)
            #expect(discovery["issuer"]?.stringValue == server.issuer.absoluteString)
            #expect(server.issuer.port != 0)
            #expect(discovery["token_endpoint"]?.stringValue == server.issuer.absoluteString + "/oauth/token")
            let keys = try JWKSet(json: try await server.get("/oauth/jwks").body)
            // A token the server signs verifies with its published keys.
            let token = try server.state.issueAccessToken(clientId: "c", subject: "demo", scope: ["openid"], jkt: nil, lifetime: 60)
            let jwt = try VerifiedJWT(token, keys: keys, options: JWTValidationOptions(issuer: server.issuer.absoluteString))
            #expect(jwt.claims.subject == "demo")
            #expect(try await server.state.verifyAccessToken(token)?.clientId == "c")
            #expect(try await server.state.verifyAccessToken(token + "x") == nil)
        }
    }

    @Test func stateSurvivesARestart() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("dev-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let (firstKey, firstIssuer) = try await RunningServer.with(DevServerConfiguration(databasePath: path)) { server in
            (try JWKSet(json: try await server.get("/oauth/jwks").body).keys.first, server.issuer)
        }
        let configuration = try await DevServer.printableConfiguration(databasePath: path)
        #expect(configuration["issuer"]?.stringValue == firstIssuer.absoluteString)
        #expect(configuration["users"]?.arrayValue?.first?["username"] == "demo")
        let strategies = Set(configuration["clients"]?.arrayValue?.compactMap { $0["strategy"]?.stringValue } ?? [])
        #expect(strategies == ["attestation", "secret", "jwt", "dcr", "browser"])
        let secondKey = try await RunningServer.with(DevServerConfiguration(databasePath: path)) { server in
            try JWKSet(json: try await server.get("/oauth/jwks").body).keys.first
        }
        #expect(secondKey == firstKey)
    }

    @Test func recordStoreTakesOnceAndDetectsReplays() async throws {
        let store = try await RecordStore.open(path: nil)
        try await store.put("v", kind: "code", id: "c1", expiresAt: Date().addingTimeInterval(60))
        #expect(try await store.take(String.self, kind: "code", id: "c1") == "v")
        #expect(try await store.take(String.self, kind: "code", id: "c1") == nil)
        try await store.put("old", kind: "code", id: "c2", expiresAt: Date().addingTimeInterval(-1))
        #expect(try await store.get(String.self, kind: "code", id: "c2") == nil)
        #expect(try await store.insertIfAbsent(kind: "jti", id: "j", expiresAt: Date().addingTimeInterval(60)))
        #expect(!(try await store.insertIfAbsent(kind: "jti", id: "j", expiresAt: Date().addingTimeInterval(60))))
        #expect(try await store.insertIfAbsent(kind: "jti", id: "k", expiresAt: Date().addingTimeInterval(-1)))
        #expect(try await store.insertIfAbsent(kind: "jti", id: "k", expiresAt: Date().addingTimeInterval(60)))
        try await store.close()
    }
}

@Suite("Redirect URIs")
struct RedirectURITests {
    @Test func loopbackRedirectsMatchOnAnyPortAndNothingElseLoosens() {
        let client = ClientRecord(
            clientId: "c", strategy: .secret, redirectUris: ["haapi://callback", "http://127.0.0.1/callback"], scope: [],
            issueTokenBoundAuthorizationCode: false, authenticators: [])
        #expect(client.accepts(redirectUri: "haapi://callback"))
        #expect(client.accepts(redirectUri: "http://127.0.0.1/callback"))
        #expect(client.accepts(redirectUri: "http://127.0.0.1:54321/callback"))
        #expect(!client.accepts(redirectUri: "http://127.0.0.1:54321/other"))
        #expect(!client.accepts(redirectUri: "http://127.0.0.1:54321/callback?x=1"))
        #expect(!client.accepts(redirectUri: "https://127.0.0.1:54321/callback"))
        #expect(!client.accepts(redirectUri: "http://localhost:54321/callback"))
        #expect(!client.accepts(redirectUri: "http://evil.example/callback"))
        #expect(!client.accepts(redirectUri: "haapi://callback/extra"))
        let appOnly = ClientRecord(
            clientId: "d", strategy: .secret, redirectUris: ["haapi://callback"], scope: [], issueTokenBoundAuthorizationCode: false,
            authenticators: [])
        #expect(!appOnly.accepts(redirectUri: "http://127.0.0.1:54321/callback"))
    }
}
