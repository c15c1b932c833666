import Foundation
import HaapiDriver
import OAuthCore
import Testing

/// HaapiError's cases are Curity's; each one's recovery suggestion, and what it keeps beside them.
@Suite("HaapiError")
struct HaapiErrorTests {
    let url = URL(string: "https://idsvr.example/oauth/authorize")!

    /// What an app's exhaustive switch over Curity's recovery suggestions makes of an error.
    func advice(_ error: any IdsvrError) -> String {
        switch error.recoverySuggestion {
        case .retryable(condition: .now): return "retry now"
        case .retryable(condition: .whenAppInForeground): return "retry in foreground"
        case .newHaapiFlow: return "restart"
        case .unrecoverable(action: .modifyConfiguration(let reason)): return "configuration: \(reason)"
        case .unrecoverable(action: .introspectCause): return "introspect"
        case .unrecoverable(action: .invalidPlatform): return "platform"
        }
    }

    @Test func eachCaseRecovers() {
        let cases: [(HaapiError, String)] = [
            (.communication(message: "offline"), "retry now"),
            (.communication(message: "refused", cause: HTTPTransportError(.tlsFailure, "bad certificate")), "introspect"),
            (.serverError("server_error", errorDescription: "down", statusCode: 503), "retry now"),
            (.serverError("invalid_request", errorDescription: "bad", statusCode: 400), "introspect"),
            (.invalidURLResponse(nil, reason: "HTML"), "introspect"),
            (.attestationNotSupported, "platform"),
            (.attestationFailure(), "platform"),
            (.attestationKeyGenFailure(), "platform"),
            (.attestationRefusedByServer(), "platform"),
            (.assertionFailure(), "platform"),
            (.dpopKeyCreationFailure(cause: CancellationError()), "platform"),
            (.dpopProofCreationFailure(cause: CancellationError()), "retry in foreground"),
            (.dpopProofFailure(message: "no key", cause: CancellationError()), "retry in foreground"),
            (.haapiTokenManagerIsClosed, "restart"),
            (.haapiTokenManagerIsExpired, "restart"),
            (.illegalState(message: "no step"), "restart"),
            (.invalidConfiguration(reason: "no DCR"), "configuration: Invalid configuration: no DCR"),
            (.haapiTokenManagerAlreadyExists(name: "app"), "configuration: A HAAPI token manager named \"app\" already exists."),
        ]
        for (error, expected) in cases {
            #expect(advice(error) == expected, "\(error)")
            #expect(error.errorDescription != nil && !error.error.isEmpty, "\(error)")
        }
    }

    /// An answer the SDK cannot use keeps the response, and its cause the status, body and delay.
    @Test func anUnusableAnswerKeepsWhatTheServerSaid() {
        let busy = TransportResponse(
            status: 503, headers: ["Content-Type": "text/html", "Retry-After": "12"], body: Data("<p>busy</p>".utf8), url: url)
        let error = HaapiError(unexpected: busy)
        guard case .invalidURLResponse(let response, let reason, let cause as UnexpectedResponseError) = error else {
            Issue.record("got \(error)")
            return
        }
        #expect(response?.url == url && error.statusCode == 503)
        #expect(reason == "The server answered HTTP 503 and asked to try again in 12 s.")
        #expect(cause.body == busy.body && cause.retryAfter == 12)
        #expect(error.retryAfter == 12 && advice(error) == "retry now")
        #expect(error.failureReason == "Body begins: <p>busy</p>")

        let html = HaapiError(unexpected: TransportResponse(status: 200, headers: ["Content-Type": "text/html"], url: url))
        #expect(html.retryAfter == nil && advice(html) == "introspect" && html.error == "invalid_url_response")
    }

    @Test func aServerErrorWithoutDescriptionGetsOne() {
        let error = HaapiError.server("invalid_token", description: nil, statusCode: 401)
        guard case .serverError("invalid_token", let description, 401) = error else {
            Issue.record("got \(error)")
            return
        }
        #expect(description == "The server answered invalid_token (HTTP 401).")
        #expect(error.statusCode == 401 && error.error == "invalid_token")
    }
}

@Suite("Client authentication methods")
struct ClientAuthenticationMethodTests {
    @Test func curitysInitialisersAndTheirErrors() throws {
        #expect(try ClientAuthenticationMethodSecret(secret: "s").clientAuthentication(clientID: "c").methodName == "client_secret_basic")
        #expect(ClientAuthenticationMethodSecret("s").secret == "s")
        #expect(try ClientAuthenticationMethodNone().clientAuthentication(clientID: "c").methodName == "none")
        let notAKey = #expect(throws: CryptoImportError.self) {
            try ClientAuthenticationMethodJWTAsymmetric(
                pem: "-----BEGIN PRIVATE KEY-----\nAA==\n-----END PRIVATE KEY-----", signatureAlgorithm: .es256)
        }
        guard case .invalidPEMString(_, let cause?)? = notAKey else {
            Issue.record("got \(String(describing: notAKey))")
            return
        }
        #expect(notAKey?.cause != nil && String(describing: cause) == notAKey?.failureReason)
        let missing = #expect(throws: CryptoImportError.self) {
            try ClientAuthenticationMethodJWTAsymmetric(pemFilename: "/nonexistent/key.pem", signatureAlgorithm: .es256, bundle: .main)
        }
        guard case .invalidPath? = missing else {
            Issue.record("got \(String(describing: missing))")
            return
        }
        // Algorithms the package does not sign with are refused, not silently replaced.
        #expect(throws: HaapiError.self) { try ClientAuthenticationMethodJWTAsymmetric(pem: "", signatureAlgorithm: .rs512) }
        #expect(throws: HaapiError.self) {
            try ClientAuthenticationMethodJWTSymmetric(signatureAlgorithm: .hs384, secretKey: String(repeating: "k", count: 48))
                .clientAuthentication(clientID: "c")
        }
        let key = JWSSigningKey.es256(.init())
        #expect(try ClientAuthenticationMethodJWTAsymmetric(key: key).signatureAlgorithm == .es256)
    }
}
