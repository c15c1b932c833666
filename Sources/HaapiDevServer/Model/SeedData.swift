import Crypto
import Foundation
import OAuthCore

/// The demo user and the clients of every access strategy, created on first start.
public enum SeedData {
    /// The demo user's name.
    public static let username = "demo"
    /// The demo user's password: a published development credential.
    public static let password = "Password1"
    /// Its hash, made once per process: every database a process seeds (the tests start many
    /// servers) would otherwise pay a PBKDF2 run at start. One salt across them reveals nothing
    /// the published password does not.
    static let demoPasswordHash = PasswordHash.make(password)
    /// The demo user's personal number, for the simulated BankID.
    public static let personalNumber = "199001011234"
    /// The HAAPI scope.
    public static let haapiScope = "urn:se:curity:scopes:haapi"

    static func install(in store: RecordStore, hashing: PasswordHashing = .standard) async throws {
        guard try await store.get(Bool.self, kind: "server", id: "seeded") == nil else { return }
        try await store.put(
            UserRecord(
                username: username, passwordHash: hashing == .standard ? demoPasswordHash : PasswordHash.make(password, hashing: hashing),
                name: "Demo User", email: "demo@example.test", phone: "+46 70 000 00 00",
                personalNumber: personalNumber),
            kind: "user", id: username)
        let appRedirect = "haapi://callback"
        // Command-line apps come back on a loopback listener with a free port (RFC 8252 §7.3).
        let loopbackRedirect = "http://127.0.0.1/callback"
        let scopes = ["openid", "profile", "email", "offline_access", haapiScope]
        let clients = [
            ClientRecord(
                clientId: "haapi-attested", strategy: .attestation, redirectUris: [appRedirect, loopbackRedirect], scope: scopes,
                issueTokenBoundAuthorizationCode: true, authenticators: ["username-password"]),
            ClientRecord(
                clientId: "haapi-secret", clientSecret: "haapi-secret-\(randomToken(12))", strategy: .secret,
                redirectUris: [appRedirect, loopbackRedirect], scope: scopes, issueTokenBoundAuthorizationCode: false,
                authenticators: ["username-password", "otp", "polling", "external-browser", "legacy-launch", "duo", "bankid", "webauthn"]),
            ClientRecord(
                clientId: "haapi-jwt", strategy: .jwt, redirectUris: [appRedirect, loopbackRedirect], scope: scopes,
                issueTokenBoundAuthorizationCode: true, authenticators: ["username-password"]),
            ClientRecord(
                clientId: "haapi-dcr-template", clientSecret: "dcr-secret-\(randomToken(12))", strategy: .dcr,
                redirectUris: [appRedirect, loopbackRedirect], scope: scopes + ["dcr"], issueTokenBoundAuthorizationCode: false,
                authenticators: ["username-password"]),
            ClientRecord(
                clientId: "browser-app", strategy: .browser, redirectUris: ["http://127.0.0.1/callback"],
                scope: ["openid", "profile", "email", "offline_access"], issueTokenBoundAuthorizationCode: false,
                authenticators: ["username-password"]),
        ]
        var stored = clients
        // What a user reads at consent, as a Curity client's name.
        let names = [
            "haapi-attested": "Demo App", "haapi-secret": "Demo App", "haapi-jwt": "Demo App", "haapi-dcr-template": "Demo App",
            "browser-app": "Demo Browser App",
        ]
        for index in stored.indices { stored[index].name = names[stored[index].clientId] }
        // Command-line apps come back from a sign-out on a loopback listener too (`haapi logout --end-session`).
        for index in stored.indices where stored[index].redirectUris.contains(loopbackRedirect) || stored[index].strategy == .browser {
            stored[index].postLogoutRedirectUris = ["http://127.0.0.1/logged-out"]
        }
        // The private_key_jwt client: a key pair, the public half registered, the private half kept for --print-config.
        let clientKey = JWSSigningKey.es256(P256.Signing.PrivateKey(), keyID: "haapi-jwt-key-1")
        if let index = stored.firstIndex(where: { $0.strategy == .jwt }), let publicJWK = clientKey.publicJWK {
            stored[index].jwks = String(decoding: try JSONValue.encodeSorted(["keys": [publicJWK]]), as: UTF8.self)
            try await store.put(clientKey.privateJWK, kind: "client-key", id: stored[index].clientId)
        }
        for client in stored { try await store.put(client, kind: "client", id: client.clientId) }
        try await store.put(true, kind: "server", id: "seeded")
    }

    /// A random URL-safe token of `bytes` random bytes.
    public static func randomToken(_ bytes: Int = 32) -> String { RandomToken.make(bytes: bytes) }
}
