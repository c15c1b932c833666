import Foundation
import OAuthCore
import Testing

/// The recovery suggestion of each error of the core, in Curity's cases, and the extra
/// information kept beside them.
@Suite("Error mapping")
struct ErrorMappingTests {
    let url = URL(string: "https://as.example/token")!

    @Test func transportFailures() {
        for code: HTTPTransportError.Code in [.connectionFailed, .connectionClosed, .timedOut, .cancelled] {
            #expect(HTTPTransportError(code, "x").recoverySuggestion == .retryable(condition: .now), "\(code)")
        }
        for code: HTTPTransportError.Code in [.tlsFailure, .publicKeyPinMismatch, .responseTooLarge] {
            #expect(HTTPTransportError(code, "x").recoverySuggestion == .unrecoverable(action: .introspectCause), "\(code)")
        }
        let refused = HTTPTransportError(.unsupportedConfiguration, "no client certificates here")
        #expect(refused.recoverySuggestion == .unrecoverable(action: .modifyConfiguration(reason: "no client certificates here")))
        #expect(refused.errorDescription == "no client certificates here" && refused.retryAfter == nil)
    }

    @Test func dpopAndJOSEFailures() {
        #expect(DPoPError(.keyCreationFailed, "no enclave").recoverySuggestion == .unrecoverable(action: .invalidPlatform))
        #expect(DPoPError(.proofCreationFailed, "locked").recoverySuggestion == .retryable(condition: .whenAppInForeground))
        #expect(DPoPError(.nonceRetryExhausted, "again").recoverySuggestion == .retryable(condition: .now))
        #expect(JOSEError(.expired, "old").recoverySuggestion == .newHaapiFlow)
        #expect(JOSEError(.signingFailed, "locked").recoverySuggestion == .retryable(condition: .whenAppInForeground))
        #expect(
            JOSEError(.unsupportedAlgorithm, "HS512").recoverySuggestion == .unrecoverable(action: .modifyConfiguration(reason: "HS512")))
        #expect(JOSEError(.invalidSignature, "forged").recoverySuggestion == .unrecoverable(action: .introspectCause))
    }

    @Test func oauthErrorsKeepTheirDelay() throws {
        func refusal(_ error: String, retryAfter: String? = nil) throws -> OAuthErrorResponse {
            var headers: HeaderFields = ["Content-Type": "application/json"]
            headers["Retry-After"] = retryAfter
            let response = TransportResponse(status: 503, headers: headers, body: Data(#"{"error":"\#(error)"}"#.utf8), url: url)
            guard case .failure(let refusal) = try TokenEndpointResponse(response) else { throw JOSEError(.malformed, "not a refusal") }
            return refusal
        }
        let busy = try refusal("temporarily_unavailable", retryAfter: "30")
        #expect(busy.recoverySuggestion == .retryable(condition: .now) && busy.retryAfter == 30)
        #expect(try refusal("server_error").retryAfter == nil)
        #expect(try refusal("invalid_grant").recoverySuggestion == .newHaapiFlow)
        #expect(
            try refusal("unauthorized_client").recoverySuggestion
                == .unrecoverable(action: .modifyConfiguration(reason: "the server answered unauthorized_client")))
        // An error whose cause had a delay says so.
        let wrapped = OIDCError(.tokenRequestFailed, "busy", serverError: "temporarily_unavailable", cause: busy)
        #expect(wrapped.retryAfter == 30 && wrapped.recoverySuggestion == .retryable(condition: .now))
    }

    /// An app's own storage throws Curity's cases with its own causes; the package's storages
    /// keep their failure as the cause.
    @Test func storageErrors() {
        struct Locked: Error {}
        let read = StorageError.readError(cause: Locked())
        #expect(
            read.error == "storage_read_error" && read.code == nil && read.recoverySuggestion == .retryable(condition: .whenAppInForeground)
        )
        #expect((read as any Error).localizedDescription.hasPrefix("reading from the storage failed"))
        #expect(StorageError.deleteError(cause: Locked()).error == "storage_delete_error")

        let timeout = StorageError(.lockTimeout, "the lock stayed taken", lockHolder: nil)
        guard case .writeError(let cause as StorageError.Failure) = timeout else {
            Issue.record("not a write error: \(timeout)")
            return
        }
        #expect(cause.code == .lockTimeout && timeout.code == .lockTimeout && timeout.message == "the lock stayed taken")
        #expect(timeout.recoverySuggestion == .retryable(condition: .whenAppInForeground))
        guard case .readError = StorageError(.invalidFormat, "damaged", underlying: "not JSON") else {
            Issue.record("not a read error")
            return
        }
        #expect(StorageError(.invalidFormat, "damaged").recoverySuggestion == .newHaapiFlow)
        #expect(StorageError(.invalidFormat, "damaged", underlying: "not JSON").underlying == "not JSON")
        guard case .deleteError = StorageError(.deleteFailed, "busy") else {
            Issue.record("not a delete error")
            return
        }
        #expect(
            StorageError(.unavailable, "no directory").recoverySuggestion
                == .unrecoverable(action: .modifyConfiguration(reason: "no directory")))
    }

    @Test func aDescriptionSaysWhatAndWhy() {
        let page = TransportResponse(status: 502, headers: ["Content-Type": "text/html"], body: Data("<html>".utf8), url: url)
        let error = UnexpectedResponseError(page, from: "the token endpoint")
        #expect(error.description.hasPrefix("unexpected_response: The token endpoint answered HTTP 502 with content of type text/html"))
        #expect(error.description.contains("Body begins: <html>"))
        let tokens = TokenEndpointError(detail: "the token response has no string \"access_token\"", response: page)
        #expect(
            tokens.description
                == "invalid_token_response: the token response has no string \"access_token\" (the token response has no string \"access_token\"; body begins: <html>)"
        )
    }
}
