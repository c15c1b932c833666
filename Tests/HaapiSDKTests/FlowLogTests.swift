import Foundation
import HaapiDriver
import HaapiSDK
import HaapiTesting
import OAuthCore
import Testing

/// What the flow sends or receives that must never reach a log line.
private let secrets = (
    clientSecret: "client-secret-XYZ", password: "correct horse battery", code: "auth-code-123", haapiToken: "haapi-token-456",
    accessToken: "user-at-789", refreshToken: "user-rt-012"
)

/// A small HAAPI server: the token endpoint (client credentials for the HAAPI token, code
/// exchange), the authorization endpoint and a login form.
private func haapiServer() -> RoutedTransport<Void> {
    RoutedTransport([
        .any("/token") { request, _ in
            if request.form["grant_type"] == "client_credentials" {
                return .json(["access_token": .string(secrets.haapiToken), "token_type": "DPoP", "expires_in": 300], to: request)
            }
            guard request.form["code"] == secrets.code else { return .json(["error": "invalid_grant"], status: 400, to: request) }
            return .json(
                ["access_token": .string(secrets.accessToken), "token_type": "DPoP", "refresh_token": .string(secrets.refreshToken)],
                to: request)
        },
        .any("/authorize") { request, _ in
            .json(
                [
                    "type": "authentication-step",
                    "actions": [
                        [
                            "template": "form", "kind": "login",
                            "model": [
                                "href": "/login", "method": "POST",
                                "fields": [["name": "userName", "type": "username"], ["name": "password", "type": "password"]],
                            ],
                        ]
                    ],
                ], type: "application/vnd.auth+json", headers: ["Set-Session-Id": "session-secret-345"], to: request)
        },
        .any("/login") { request, _ in
            guard request.headers["Authorization"] == "DPoP \(secrets.haapiToken)", request.form["password"] == secrets.password else {
                return .json(
                    ["type": "https://curity.se/problems/incorrect-credentials"], status: 400, type: "application/problem+json", to: request
                )
            }
            return .json(
                ["type": "oauth-authorization-response", "properties": ["code": .string(secrets.code)]], type: "application/vnd.auth+json",
                to: request)
        },
    ])
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
        let scope = HaapiLoggerScope(
            followUpTags: DriverFollowUpTag.allCases + SdkFollowUpTag.allCases, sinks: [sink], isDebugEnabled: true)
        try await HaapiLogger.withScope(scope) { try await runFlow(sink) }
    }

    func runFlow(_ sink: CollectingSink) async throws {
        let server = haapiServer()
        let configuration = HaapiConfiguration(
            name: "log-test-\(UUID().uuidString)", clientId: "app", baseURL: URL(string: "https://idsvr.example")!,
            tokenEndpointURL: URL(string: "https://idsvr.example/token")!,
            authorizationEndpointURL: URL(string: "https://idsvr.example/authorize")!,
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
            Issue.record("no tokens")
            return
        }
        let text = sink.text
        let proofs = server.sent.compactMap { $0.headers["DPoP"] }
        // The flow did log (so the check below is not vacuous) ...
        #expect(text.contains("HAAPI_SDK_HTTP") && text.contains("HAAPI_DRIVER_HTTP") && text.contains("*****"))
        // ... and no secret reached a line.
        let forbidden =
            [
                secrets.clientSecret, Data("app:\(secrets.clientSecret)".utf8).base64EncodedString(), secrets.password, secrets.code,
                secrets.haapiToken, secrets.accessToken, secrets.refreshToken, "session-secret-345",
            ] + proofs
        #expect(!proofs.isEmpty)
        for secret in forbidden {
            #expect(!text.contains(secret), "a secret reached the logs: \(secret.prefix(12))…")
        }
    }
}
