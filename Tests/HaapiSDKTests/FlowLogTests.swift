import Foundation
import HaapiDriver
import HaapiSDK
import OAuthCore
import Testing

/// A small HAAPI server double: the token endpoint (client credentials for the HAAPI token,
/// code exchange), the authorization endpoint and a login form.
final class HaapiServerDouble: HTTPTransport, @unchecked Sendable {
    static let secrets = (clientSecret: "client-secret-XYZ", password: "correct horse battery", code: "auth-code-123", haapiToken: "haapi-token-456", accessToken: "user-at-789", refreshToken: "user-rt-012")
    private let lock = NSLock()
    private(set) var proofs: [String] = []

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        lock.withLock { if let proof = request.headers["DPoP"] { proofs.append(proof) } }
        let form = Dictionary(FormURLEncoding.decode(String(decoding: request.body ?? Data(), as: UTF8.self)), uniquingKeysWith: { a, _ in a })
        func reply(_ status: Int, _ type: String, _ body: JSONValue, headers: HeaderFields = [:]) -> TransportResponse {
            var headers = headers
            headers["Content-Type"] = type
            return TransportResponse(status: status, headers: headers, body: body.serialized(), url: request.url)
        }
        let secrets = Self.secrets
        switch request.url.path {
        case "/token" where form["grant_type"] == "client_credentials":
            return reply(200, "application/json", ["access_token": .string(secrets.haapiToken), "token_type": "DPoP", "expires_in": 300])
        case "/token":
            guard form["code"] == secrets.code else { return reply(400, "application/json", ["error": "invalid_grant"]) }
            return reply(200, "application/json", ["access_token": .string(secrets.accessToken), "token_type": "DPoP", "refresh_token": .string(secrets.refreshToken)])
        case "/authorize":
            return reply(200, "application/vnd.auth+json", [
                "type": "authentication-step",
                "actions": [["template": "form", "kind": "login", "model": ["href": "/login", "method": "POST",
                    "fields": [["name": "userName", "type": "username"], ["name": "password", "type": "password"]]]]],
            ], headers: ["Set-Session-Id": "session-secret-345"])
        case "/login":
            guard request.headers["Authorization"] == "DPoP \(secrets.haapiToken)", form["password"] == secrets.password else {
                return reply(400, "application/problem+json", ["type": "https://curity.se/problems/incorrect-credentials"])
            }
            return reply(200, "application/vnd.auth+json", ["type": "oauth-authorization-response", "properties": ["code": .string(secrets.code)]])
        default:
            return reply(404, "text/plain", "not found")
        }
    }
}

final class CollectingSink: LogSink, @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func writeLog(logType: LogType, followUpTag: any FollowUpTag, message: String, file: String, line: Int) {
        lock.withLock { lines.append("[\(followUpTag.tagName)] \(message)") }
    }
    var text: String { lock.withLock { lines.joined(separator: "\n") } }
}

@Suite("Logs of a full flow", .serialized)
struct FlowLogTests {
    @Test func debugLogsOfAFullFlowHoldNoSecret() async throws {
        // A scope of its own: other suites change the global logger settings in parallel.
        let sink = CollectingSink()
        let scope = HaapiLoggerScope(followUpTags: DriverFollowUpTag.allCases + SdkFollowUpTag.allCases, sinks: [sink], isDebugEnabled: true)
        try await HaapiLogger.withScope(scope) { try await runFlow(sink) }
    }

    func runFlow(_ sink: CollectingSink) async throws {
        let server = HaapiServerDouble()
        let secrets = HaapiServerDouble.secrets
        let configuration = HaapiConfiguration(
            name: "log-test-\(UUID().uuidString)", clientId: "app", baseURL: URL(string: "https://idsvr.example")!,
            tokenEndpointURL: URL(string: "https://idsvr.example/token")!, authorizationEndpointURL: URL(string: "https://idsvr.example/authorize")!,
            appRedirect: "app:/cb", clientAuthenticationMethod: ClientAuthenticationMethodSecret(secrets.clientSecret))
        let accessor: any HaapiAccessor = try await HaapiAccessorBuilder(haapiConfiguration: configuration).setTransport(server)
            .setStorage(InMemoryStorage()).build()
        let manager = accessor.haapiManager
        let login = try #require(await manager.start().representation as? InteractiveFormStep)
        let loginForm = try #require(login.actions.first?.form)
        let done = try #require(
            await manager.submitForm(loginForm, parameters: ["userName": "alice", "password": secrets.password])
                .representation as? OAuthAuthorizationResponseStep)
        let code = try #require(done.oauthAuthorizationResponseProperties.code)
        guard case .successfulToken = await accessor.oAuthTokenManager.fetchAccessToken(with: code, dpop: manager.dpop) else {
            Issue.record("no tokens"); return
        }
        let text = sink.text
        // The flow did log (so the check below is not vacuous) ...
        #expect(text.contains("HAAPI_SDK_HTTP") && text.contains("HAAPI_DRIVER_HTTP") && text.contains("*****"))
        // ... and no secret reached a line.
        let forbidden = [
            secrets.clientSecret, Data("app:\(secrets.clientSecret)".utf8).base64EncodedString(), secrets.password, secrets.code,
            secrets.haapiToken, secrets.accessToken, secrets.refreshToken, "session-secret-345",
        ] + server.proofs
        #expect(!server.proofs.isEmpty)
        for secret in forbidden {
            #expect(!text.contains(secret), "a secret reached the logs: \(secret.prefix(12))…")
        }
    }
}
