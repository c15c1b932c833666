import Foundation
import HaapiTesting
import OAuthCore
import OAuthTransportNIO
import Testing

/// The settings of a running third-party OpenID Provider (Glewlwyd), as `Scripts/op/up.sh` writes them.
struct ProviderSettings: Sendable {
    let values: [String: String]

    /// Reads the `op.env` file named by an environment variable (set by `Scripts/test.sh`).
    static func load(_ variable: String) -> ProviderSettings? {
        guard let path = ProcessInfo.processInfo.environment[variable],
            let text = try? String(contentsOfFile: path, encoding: .utf8)
        else { return nil }
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") where line.contains("=") && !line.hasPrefix("#") {
            let parts = line.split(separator: "=", maxSplits: 1)
            var value = parts.count > 1 ? String(parts[1]) : ""
            if value.hasPrefix("'") || value.hasPrefix("\"") { value = String(value.dropFirst().dropLast()) }
            values[String(parts[0])] = value
        }
        return ProviderSettings(values: values)
    }

    subscript(_ key: String) -> String {
        get throws { try #require(values[key], "op.env has no \(key)") }
    }

    var tokenEndpoint: URL { get throws { try #require(URL(string: try self["OP_TOKEN_ENDPOINT"])) } }

    /// conf-app with its secret (client_secret_basic).
    var confidentialClient: ClientAuthentication {
        get throws { .clientSecretBasic(clientID: try self["OP_CONF_CLIENT_ID"], secret: try self["OP_CONF_CLIENT_SECRET"]) }
    }
}

@Suite(
    "Against a real OpenID Provider (Glewlwyd)",
    .enabled(if: ProviderSettings.load("HAAPI_TEST_OP_ENV") != nil, "needs Scripts/test.sh to start the provider"))
struct RealProviderTests {
    let settings = ProviderSettings.load("HAAPI_TEST_OP_ENV")!

    /// The provider's signing keys, from discovery and `jwks_uri`.
    func providerKeys(_ transport: any HTTPTransport) async throws -> JWKSet {
        let discovery = try await transport.send(TransportRequest(url: URL(string: try settings["OP_DISCOVERY"])!))
        let jwksURI = try #require(try JSONValue(parsing: discovery.body)["jwks_uri"]?.stringValue)
        return try JWKSet(json: try await transport.send(TransportRequest(url: URL(string: jwksURI)!)).body)
    }

    @Test func dpopProofIsAcceptedAndTheTokenIsBoundToOurThumbprint() async throws {
        let transport = try AsyncHTTPClientTransport()
        let dpop = try Dpop()
        let client = TokenEndpointClient(
            endpoint: try settings.tokenEndpoint, clientAuthentication: try settings.confidentialClient, transport: transport, dpop: dpop)
        let (result, _) = try await client.requestToken(.clientCredentials(scope: "openid"))
        guard case .success(let tokens) = result else {
            Issue.record("no tokens: \(result)")
            return
        }
        #expect(tokens.tokenType == "DPoP")
        // The access token is a JWT signed by the provider: verify it with the provider's published keys.
        let accessToken = try VerifiedJWT(
            tokens.accessToken, keys: try await providerKeys(transport),
            options: JWTValidationOptions(issuer: try settings["OP_ISSUER"]))
        #expect(accessToken.claims.all["cnf"]?["jkt"]?.stringValue == dpop.thumbprint)
    }

    @Test func withoutAProofTheTokenIsABearerToken() async throws {
        let client = TokenEndpointClient(
            endpoint: try settings.tokenEndpoint,
            clientAuthentication: .clientSecretPost(
                clientID: try settings["OP_CONF_CLIENT_ID"], secret: try settings["OP_CONF_CLIENT_SECRET"]),
            transport: try AsyncHTTPClientTransport())
        let (result, _) = try await client.requestToken(.clientCredentials(scope: "openid"))
        guard case .success(let tokens) = result else {
            Issue.record("no tokens: \(result)")
            return
        }
        #expect(tokens.tokenType.lowercased() == "bearer")
        #expect(!tokens.isDPoPBound)
    }

    @Test func clientAssertionsAreAccepted() async throws {
        let pem = try String(contentsOfFile: try settings["OP_JWT_CLIENT_KEY"], encoding: .utf8)
        let methods: [ClientAuthentication] = [
            try .clientSecretJWT(clientID: try settings["OP_CONF_CLIENT_ID"], secret: try settings["OP_CONF_CLIENT_SECRET"]),
            try .privateKeyJWT(
                clientID: try settings["OP_JWT_CLIENT_ID"],
                key: JWSSigningKey(pem: pem, algorithm: .es256, keyID: try settings["OP_JWT_CLIENT_KID"])),
        ]
        for method in methods {
            let client = TokenEndpointClient(
                endpoint: try settings.tokenEndpoint, clientAuthentication: method, transport: try AsyncHTTPClientTransport())
            let (result, response) = try await client.requestToken(.clientCredentials(scope: "openid"))
            guard case .success = result else {
                Issue.record("\(method.methodName) refused: HTTP \(response.status) \(response.bodyText)")
                continue
            }
        }
    }

    @Test func wrongSecretIsATypedOutcome() async throws {
        let client = TokenEndpointClient(
            endpoint: try settings.tokenEndpoint,
            clientAuthentication: .clientSecretBasic(clientID: try settings["OP_CONF_CLIENT_ID"], secret: "wrong"),
            transport: try AsyncHTTPClientTransport())
        do {
            let (result, response) = try await client.requestToken(.clientCredentials(scope: "openid"))
            guard case .failure(let error) = result else {
                Issue.record("a wrong secret got tokens")
                return
            }
            #expect(!error.error.isEmpty && response.status >= 400)
        } catch let error as UnexpectedResponseError {
            // Glewlwyd answers some refusals with an empty body: still a typed error with the status.
            #expect(error.statusCode >= 400)
        }
    }
}

@Suite(
    "Against a real OpenID Provider that requires DPoP nonces",
    .enabled(if: ProviderSettings.load("HAAPI_TEST_OP_NONCE_ENV") != nil, "needs Scripts/test.sh to start the provider"))
struct RealProviderNonceTests {
    let settings = ProviderSettings.load("HAAPI_TEST_OP_NONCE_ENV")!

    @Test func firstRequestIsChallengedAndRetriedExactlyOnce() async throws {
        let transport = RecordingTransport(try AsyncHTTPClientTransport())
        let dpop = try Dpop()
        let client = TokenEndpointClient(
            endpoint: try settings.tokenEndpoint, clientAuthentication: try settings.confidentialClient, transport: transport, dpop: dpop)
        let (result, _) = try await client.requestToken(.clientCredentials(scope: "openid"))
        guard case .success(let tokens) = result else {
            Issue.record("no tokens: \(result)")
            return
        }
        #expect(tokens.isDPoPBound)
        #expect(transport.statuses == [400, 200])
        // The nonce is now known: the next request needs no retry.
        _ = try await client.requestToken(.clientCredentials(scope: "openid"))
        #expect(transport.statuses == [400, 200, 200])
    }
}
