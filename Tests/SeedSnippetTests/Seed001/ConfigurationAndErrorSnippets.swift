import Foundation
import HaapiUI
import HaapiTesting
import Testing

// Seed 001, the OAuth accessor, "Client Authentication Method", "Error handling", "Common
// errors" and the logger.

// MARK: 001-8 HaapiAccessorBuilder for OAuth only
// Changed: the `...` of both configurations filled in; `build()`, missing in the seed, added
// with `try await`.

func oauthAccessorSnippet(_ configuredHaapi: HaapiConfiguration, _ configuredDCR: DCRConfiguration) async throws -> OAuthTokenManager {
let haapiConfiguration: HaapiConfiguration = configuredHaapi
let dcrConfiguration: DCRConfiguration = configuredDCR
let oauthAccessor: OAuthAccessor = try await HaapiAccessorBuilder(haapiConfiguration: haapiConfiguration)
.setHaapiAccessorOption(option: .oauth)
.setDCRConfiguration(configuration: dcrConfiguration)
.build()
// Fetch token with OAuthTokenManager
let oAuthTokenManager: OAuthTokenManager = oauthAccessor.oAuthTokenManager
// ... oAuthTokenManager.fetch/refresh ...
    return oAuthTokenManager
}

// MARK: 001-20, 001-21 Handling HaapiError and its IdsvrError metadata
// Changed: closing braces restored; a case without a statement gets `break`; the first line
// of `handleError` keeps the error's code; in `handleHaapiError`, `as` is `as?` (a
// conditional binding needs an optional) and each case's comments are followed by a line
// that keeps the advice; the seed's `.nonRecoverable(action:)` is `.unrecoverable(action:)`, as
// Curity's SDK 5 interface names it, and SDK 5's `.invalidURLResponse` has its case.

final class HaapiErrorScreen {
    var handled: [String] = []
    var advice: String?

private func handleError(_ error: Error) {
guard let haapiError = error as? HaapiError else { return }
handled.append(haapiError.error)
switch haapiError {
case .assertionFailure(let cause): cause
case .attestationFailure(let cause): cause
case .attestationKeyGenFailure(let cause): cause
case .attestationNotSupported: break
case .attestationRefusedByServer(let cause): cause
case .communication(let message, let cause): cause
case .dpopKeyCreationFailure(let cause): cause
case .dpopProofCreationFailure(let cause): cause
case .dpopProofFailure(let message, let cause): break
case .haapiTokenManagerAlreadyExists(let name): name
case .haapiTokenManagerIsClosed: break
case .haapiTokenManagerIsExpired: break
case .illegalState(let message): message
case .invalidConfiguration(let reason): reason
case .invalidStatusCode(let statusCode): statusCode
case .serverError(let error, let errorDescription, let statusCode): break
case .invalidURLResponse(let response, let reason, let cause): reason
}
}

private func handleHaapiError(_ error: HaapiError) {
guard let haapiError = error as? IdsvrError else { return }
// check the error metadata for information about the error.
// for example, check the recovery suggestion to find out if the error can be recovered
switch haapiError.recoverySuggestion {
case .retryable(condition: let condition):
// The error can be recovered by retrying the same operation when the `condition` is met.
// For example, retrying the same operation at a later time, when the app is running in the foreground.
// This is likely to happen when the device's resources are currently unavailable
advice = "retry \(condition)"
case .newHaapiFlow:
// The error can be recovered by triggering a new Authentication flow from the start.
advice = "new flow"
case .unrecoverable(action: let action):
// This error cannot be recovered without compile time or runtime corrective measures as instructed by the `action`.
advice = "fix: \(action)"
}
}

    func handle(_ error: Error) {
        handleError(error)
        if let haapiError = error as? HaapiError { handleHaapiError(haapiError) }
    }
}

// MARK: 001-22 A DPoP failure at refresh, and the fallback configuration
// Changed: the lines the seed elides filled in (the configuration's other arguments, the
// handling the comments describe keeps the failure); braces restored; `HaapiManager(...)`,
// which throws, with `try`.

final class DPoPFallbackScreen: @unchecked Sendable {
    let failures = Delivered<[String]>()

    func refresh(_ token: String, CONFIG_ALIAS: String, server: URL) {
let secureEnclaveHaapiConfiguration = HaapiConfiguration(name: CONFIG_ALIAS,
clientId: "foo-client-id", baseURL: server, tokenEndpointURL: server.appendingPathComponent("oauth/token"),
authorizationEndpointURL: server.appendingPathComponent("oauth/authorize"), appRedirect: "foo-app-redirect",
tokenBoundConfiguration: BoundedTokenConfiguration(keyPairType: .secureEnclave))
let tokenManager = OAuthTokenManager(oauthTokenConfiguration: secureEnclaveHaapiConfiguration)
tokenManager.refreshAccessToken(with: token) { tokenResponse in
if case let .error(cause) = tokenResponse, case let HaapiError.dpopProofFailure(message, error) = cause {
// Error is from the dpop binding mechanism
// message and error can be inspected for details about the problem
// Suggested handling:
// Check the application state:
// - if is `background` ignore the error and backoff as subsequent calls in this code execution path are likely to also fail
// - else implement a retry mechanism
// - store some marker/counter that provides info whether is the first time the refresh is called or a retry
// - based on the value of the marker/counter infer if the error is persistent
// - if the error is persistent, trigger a new authentication flow with different configuration
self.failures.append("\(message): \(error)")
}
// handle other OAuthCompletion
}
    }

    func fallback(CONFIG_ALIAS: String, server: URL) throws -> HaapiManager {
// when the persistent error conditions are met use the fallback configuration to start a new authentication
let fallbackTokenBoundConfiguration = BoundedTokenConfiguration(keyPairType: CryptoKeyType.p256)
let fallbackHaapiConfiguration = HaapiConfiguration(name: CONFIG_ALIAS,
clientId: "foo-client-id", baseURL: server, tokenEndpointURL: server.appendingPathComponent("oauth/token"),
authorizationEndpointURL: server.appendingPathComponent("oauth/authorize"), appRedirect: "foo-app-redirect",
tokenBoundConfiguration: fallbackTokenBoundConfiguration)
let haapiManager = try HaapiManager(haapiConfiguration: fallbackHaapiConfiguration)
        return haapiManager
    }
}

// MARK: 001-23, 001-24, 001-25 The SDK's logs
// Changed: inside a namespace (the names are seed 000's); the sink's comment followed by a
// line that keeps the line; braces restored.

enum SdkLoggingSnippet {
class AppDelegate: UIResponder, UIApplicationDelegate {
// ...
func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
// ...
HaapiLogger.followUpTags = DriverFollowUpTag.allCases + SdkFollowUpTag.allCases // To filter logs.
return true
}
// ...
}

static func sdkOnly() {
// Driver and Sdk logs are displayed in the console
HaapiLogger.followUpTags = DriverFollowUpTag.allCases + SdkFollowUpTag.allCases
// Only SDK logs are displayed in the console.
HaapiLogger.followUpTags = SdkFollowUpTag.allCases
}

class MyLogSink: LogSink {
func writeLog(logType: LogType,
followUpTag: any FollowUpTag,
message: String,
file: String,
line: Int)
{
// Filter/export to your designed tool
LogRecord.shared.append("[\(followUpTag.tagName)] [\(logType.rawValue)] \(message)")
}
}
}

extension SeedSnippets {
    @Suite("Seed 001: configuration, errors and logs")
    @MainActor struct ConfigurationAndErrors {
        @Test("001-16: a client secret, sent with HTTP Basic")
        func clientSecret() throws {
            // MARK: 001-16 (unchanged)
            let clientAuthenticationMethod = ClientAuthenticationMethodSecret("foo")
            // MARK: end of 001-16
            var parameters: [(String, String)] = []
            var headers = HeaderFields()
            try clientAuthenticationMethod.clientAuthentication(clientID: "c").apply(
                to: &parameters, headers: &headers, recipient: .init(endpoint: URL(string: "https://idsvr.example/token")!))
            #expect(headers["Authorization"] == "Basic " + Data("c:foo".utf8).base64EncodedString())
        }

        @Test("001-17: mutual TLS from bundled files, and with a pinned server key")
        func mutualTLS() throws {
            let pkcs12Filename = "client.p12"
            let passphrase = "seed-passphrase"
            let serverPEMFilename = "server.pem"
            // MARK: 001-17
            // Changed: a `)` too many removed.
            // using bundled certificates
            let clientAuthenticationMethod = try ClientAuthenticationMethodMTLS(pkcs12Filename: pkcs12Filename,
            pkcs12Passphrase: passphrase,
            serverPEMFilename: serverPEMFilename,
            isValidatingHostname: true,
            bundle: appBundle)
            // using server public key hash
            let mtlsClientAuth2 = try! ClientAuthenticationMethodMTLS(pkcs12Filename: pkcs12Filename,
            pkcs12Passphrase: passphrase,
            serverKeyPinnings: [KeyPinning(hostname: "",
            publicKeyHash: "Kjuy4mT3fbeDozRNP6rTjWRYmbs79Begb5Roq+DUu7s=")],
            bundle: appBundle)
            // MARK: end of 001-17
            #expect(clientAuthenticationMethod.tlsOptions?.clientIdentity != nil)
            #expect(clientAuthenticationMethod.tlsOptions?.trustedRootsPEM?.contains("BEGIN CERTIFICATE") == true)
            #expect(mtlsClientAuth2.tlsOptions?.keyPinnings.first?.publicKeyHash == "Kjuy4mT3fbeDozRNP6rTjWRYmbs79Begb5Roq+DUu7s=")
            #expect(try mtlsClientAuth2.clientAuthentication(clientID: "c").methodName == "tls_client_auth")
        }

        @Test("001-18: client assertions signed with the bundled RSA key and with the shared secret")
        func clientAssertions() throws {
            let rsaPrivateKeyPEM = "client-rsa-key.pem"
            // MARK: 001-18 (unchanged)
            // Asymmetric keypair
            let asymConfig = try ClientAuthenticationMethodJWTAsymmetric(pemFilename: rsaPrivateKeyPEM, signatureAlgorithm: .rs256, bundle: appBundle)
            // Symmetric keypair
            let secretKeyJWT = "_UQ49FAPrM0XOdjNROeVIrbfPvTzqVgfLBi66Nk0mIBttc9ZBakcC9ZiuAu9WCvg"
            let symConfig = ClientAuthenticationMethodJWTSymmetric(signatureAlgorithm: .hs256, secretKey: secretKeyJWT)
            // MARK: end of 001-18
            let audience = URL(string: "https://idsvr.example/token")!
            for (method, key) in [
                (asymConfig as any ClientAuthenticationMethod, try JWSVerificationKey(jwk: try #require(asymConfig.key.publicJWK))),
                (symConfig, JWSVerificationKey(hmacSecret: Data(secretKeyJWT.utf8))),
            ] {
                var parameters: [(String, String)] = []
                var headers = HeaderFields()
                try method.clientAuthentication(clientID: "c").apply(to: &parameters, headers: &headers, recipient: .init(endpoint: audience))
                let assertion = try #require(parameters.first { $0.0 == "client_assertion" }?.1)
                let verified = try VerifiedJWT(assertion, key: key, options: JWTValidationOptions(issuer: "c", audience: audience.absoluteString))
                #expect(verified.claims.subject == "c")
            }
        }

        @Test("001-19: the registration endpoint URL(string:relativeTo:) makes is absolute; one it could not make is a configuration error")
        func dcrConfiguration() async throws {
            let dcrConfiguration = fooDCRConfiguration(serverBaseURL: URL(string: "https://idsvr.example")!)
            #expect(dcrConfiguration.clientRegistrationEndpointUrl?.absoluteString == "https://idsvr.example/oauth/oauth-registration")
            #expect(dcrConfiguration.templateClientId == "dcr-client-template-id")
            let unusable = DCRConfiguration(templateClientId: "t", clientRegistrationEndpointUrl: URL(string: "http://[bad"))
            do {
                let _: HaapiAccessor = try await HaapiAccessorBuilder(haapiConfiguration: fooHaapiConfiguration())
                    .setClientAuthenticationMethod(method: ClientAuthenticationMethodSecret("foo"))
                    .setDCRConfiguration(configuration: unusable).build()
                Issue.record("built with no registration endpoint")
            } catch HaapiError.invalidConfiguration(let reason) {
                #expect(reason.contains("clientRegistrationEndpointUrl"))
            }
        }

        @Test("001-8: the OAuth accessor of an app extension refreshes with the client DCR registered")
        func oauthAccessor() async throws {
            try await SnippetServer.with { server in
                try await server.addClient("dcr-client-template-id", secret: "foo", strategy: .dcr, tokenBound: false)
                let configuration = HaapiConfiguration(
                    name: "foo-name", clientId: "dcr-client-template-id", baseURL: server.baseURL,
                    tokenEndpointURL: server.tokenEndpointURL, authorizationEndpointURL: server.authorizationEndpointURL,
                    appRedirect: "foo-app-redirect", clientAuthenticationMethod: ClientAuthenticationMethodSecret("foo"))
                let dcr = fooDCRConfiguration(serverBaseURL: server.baseURL)
                // The app: a flow through 001-4's accessor, and the code exchange.
                let accessor = try await accessorSnippet(configuration, dcr)
                let done = try await runToAuthorizationResponse(accessor.haapiManager, from: await accessor.haapiManager.start())
                guard case .successfulToken(let tokens) = await accessor.oAuthTokenManager.fetchAccessToken(
                    with: try #require(done.oauthAuthorizationResponseProperties.code), dpop: accessor.haapiManager.dpop)
                else { Issue.record("no tokens"); return }
                accessor.close()
                // The extension.
                let oAuthTokenManager = try await oauthAccessorSnippet(configuration, dcr)
                guard case .successfulToken(let refreshed) = await oAuthTokenManager.refreshAccessToken(with: try #require(tokens.refreshToken)) else {
                    Issue.record("the extension could not refresh"); return
                }
                let registered = try await server.registeredClients(from: "dcr-client-template-id")
                #expect(registered.count == 1)
                #expect(try await server.claims(of: refreshed.accessToken)?.clientId == registered.first?.clientId)
                #expect(refreshed.isDPoPBound)  // with the key kept since the code exchange
            }
        }

        @Test("001-20, 001-21: real HaapiErrors through the exhaustive switch and their recovery suggestions")
        func haapiErrors() async throws {
            try await SnippetServer.with { server in
                let screen = HaapiErrorScreen()
                // No attestation, no DCR, no client authentication on this device.
                do {
                    _ = try HaapiManager(haapiConfiguration: fooHaapiConfiguration())
                    Issue.record("a manager without a way to get HAAPI tokens")
                } catch {
                    screen.handle(error)
                }
                #expect(screen.handled == ["invalid_configuration"])
                #expect(screen.advice?.hasPrefix("fix: modifyConfiguration(reason: ") == true)
                // A server that cannot be reached.
                let unreachable = HaapiConfiguration(
                    name: "foo-unreachable", clientId: "foo-client-id", baseURL: URL(string: "http://127.0.0.1:1")!,
                    tokenEndpointURL: URL(string: "http://127.0.0.1:1/oauth/token")!, authorizationEndpointURL: URL(string: "http://127.0.0.1:1/oauth/authorize")!,
                    appRedirect: "foo-app-redirect", clientAuthenticationMethod: ClientAuthenticationMethodSecret("foo"))
                let manager = try HaapiManager(haapiConfiguration: unreachable)
                screen.handle(try #require(await manager.start().error))
                #expect(screen.handled.last == "communication")
                #expect(screen.advice == "retry \(RetryCondition.now)")
                // A closed manager.
                manager.close()
                screen.handle(try #require(await manager.start().error))
                #expect(screen.handled.last == "haapi_token_manager_closed")
                #expect(screen.advice == "new flow")
            }
        }

        @Test("001-22: a DPoP failure at refresh is matched as the seed matches it; the P-256 fallback starts a new flow")
        func dpopProofFailureAndFallback() async throws {
            try await SnippetServer.with { server in
                try await server.addClient("foo-client-id", strategy: .attestation, tokenBound: true)
                var configuration = fooHaapiConfiguration()
                configuration.name = "foo-alias"
                let (manager, step) = try await loginWithManager(configuration)
                guard case .successfulToken(let tokens) = await OAuthTokenManager(oauthTokenConfiguration: configuration).fetchAccessToken(
                    with: try #require(step.oauthAuthorizationResponseProperties.code), dpop: manager.dpop)
                else { Issue.record("no tokens"); return }
                manager.close()
                // The key the refresh token is bound to cannot be read any more (a device in a bad state).
                try corruptStoredKey(of: "foo-alias")
                let screen = DPoPFallbackScreen()
                screen.refresh(try #require(tokens.refreshToken), CONFIG_ALIAS: "foo-alias", server: server.baseURL)
                let failure = try await waitFor { screen.failures.value?.first }
                #expect(failure.contains("cannot be read"))
                try await withDevelopmentAttestation {
                    let fallback = try screen.fallback(CONFIG_ALIAS: "foo-alias", server: server.baseURL)
                    let done = try await runToAuthorizationResponse(fallback, from: await fallback.start())
                    #expect(done.oauthAuthorizationResponseProperties.code != nil)
                    fallback.close()
                }
            }
        }

        @Test("001-23, 001-24, 001-25: Driver and Sdk tags, then Sdk alone, to the sink")
        func sdkLogs() async throws {
            // The logger is global: other suites' tests must not change it meanwhile.
            try await SharedState.haapiLogger.exclusively { try await sdkLogsHoldingTheLogger() }
        }

        func sdkLogsHoldingTheLogger() async throws {
            defer {
                HaapiLogger.followUpTags = []
                HaapiLogger.removeAllLogSinks()
                HaapiLogger.isConsoleEnabled = true
                LogRecord.shared.clear()
            }
            HaapiLogger.isConsoleEnabled = false
            HaapiLogger.appendLogSink(SdkLoggingSnippet.MyLogSink())
            try await SnippetServer.with { server in
                try await server.addClient("foo-client-id", strategy: .attestation, tokenBound: false)
                #expect(SdkLoggingSnippet.AppDelegate().application(UIApplication.shared, didFinishLaunchingWithOptions: nil))
                let (first, _) = try await loginWithManager(fooHaapiConfiguration())
                first.close()
                let lines = LogRecord.shared.lines
                #expect(lines.contains { $0.hasPrefix("[HAAPI_DRIVER_") } && lines.contains { $0.hasPrefix("[HAAPI_SDK_") })
                #expect(!lines.contains { $0.hasPrefix("[HAAPI_UI_") })
                SdkLoggingSnippet.sdkOnly()
                LogRecord.shared.clear()
                let (second, _) = try await loginWithManager(fooHaapiConfiguration())
                second.close()
                #expect(!LogRecord.shared.lines.isEmpty)
                #expect(LogRecord.shared.lines.allSatisfy { $0.hasPrefix("[HAAPI_SDK_") })
            }
        }
    }
}
