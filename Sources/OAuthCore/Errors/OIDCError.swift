import Foundation

/// Why a browser-based OpenID Connect operation failed.
///
/// A struct around an extensible ``Code`` (like the other errors of this package), so new
/// reasons can be added without breaking callers. Switch on ``recoverySuggestion`` to decide
/// between retrying, a new login ([`Code.loginRequired`](doc:ErrorCode/loginRequired)), or fixing configuration.
public struct OIDCError: CodedError {
    /// The reason.
    public let code: Code
    /// What happened, naming the value that was wrong.
    public let message: String
    /// The OAuth `error` the server sent, when it sent one.
    public let serverError: String?
    /// The lower-level error, if any.
    public let cause: (any Error)?

    /// Makes an error.
    public init(_ code: Code, _ message: String, serverError: String? = nil, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.serverError = serverError
        self.cause = cause
    }

    /// Why, by kind of failure: untrusted metadata, a forged or mixed-up response, a login not completed,
    /// tokens that fail validation, ... (the message for the rest).
    public var failureReason: String {
        switch code {
        case .issuerMismatch, .invalidMetadata, .discoveryFailed:
            return "The provider's metadata cannot be trusted or read."
        case .keySetUnavailable:
            return "The provider's signing keys could not be fetched, so its ID tokens cannot be verified."
        case .stateMismatch, .authorizationIssuerMismatch, .missingAuthorizationIssuer:
            return "The authorization response did not come from the request this client made (possible mix-up or forgery)."
        case .authorizationError:
            return "The provider refused the authorization request (error \(serverError ?? "unknown"))."
        case .cancelled, .timedOut:
            return "The user did not complete the login in the browser."
        case .deviceCodeExpired:
            return "The code shown to the user expired before the login was approved."
        case .accessDenied:
            return "The user refused the login."
        case .noPendingRequest, .redirectAlreadyDelivered:
            return "The URL the app was opened with is not the redirect a login or logout under way waits for."
        case .invalidIDToken, .nonceMismatch, .atHashMismatch, .userInfoSubjectMismatch:
            return "The provider's tokens or claims failed OpenID Connect validation."
        case .loginRequired:
            return "There is no usable session: the tokens are missing, expired or were revoked."
        case .tokenRequestFailed:
            return "The token endpoint refused the request (error \(serverError ?? "unknown"))."
        default:
            return message
        }
    }

    /// Failures of an exchange that got no usable answer (no response, a busy or failing
    /// server) take the recovery of their ``cause``: a refused connection waits for the
    /// network, a 503 keeps its `Retry-After`, a page that is not JSON needs the server fixed.
    public var recoverySuggestion: IdsvrErrorHandling {
        switch code {
        case .discoveryFailed, .keySetUnavailable:
            return causeRecovery ?? .retryable(condition: .now)
        case .userInfoFailed:
            return causeRecovery ?? .unrecoverable(action: .introspectCause)
        case .tokenRequestFailed, .deviceAuthorizationFailed, .authorizationError:
            // The OAuth error's own (invalid_grant: a new login; server_error: later), or the unusable answer's.
            return causeRecovery ?? .forOAuthError(serverError ?? "", reason: message)
        default:
            return ownRecovery
        }
    }

    private var causeRecovery: IdsvrErrorHandling? { (cause as? any IdsvrError)?.recoverySuggestion }

    private var ownRecovery: IdsvrErrorHandling {
        switch code {
        case .loginRequired, .cancelled, .timedOut, .stateMismatch, .nonceMismatch, .deviceCodeExpired, .accessDenied:
            return .newHaapiFlow
        case .noPendingRequest, .redirectAlreadyDelivered:
            // A stale or repeated link: nothing to do; the login under way (if any) goes on.
            return .unrecoverable(action: .introspectCause)
        case .userAgentFailed:
            return .retryable(condition: .now)
        case .notSupported, .invalidConfiguration:
            return .unrecoverable(action: .modifyConfiguration(reason: message))
        default:
            // Metadata, issuer, signature and claim failures: the provider is misconfigured
            // or an attacker is involved; no retry fixes that.
            return .unrecoverable(action: .introspectCause)
        }
    }
}

extension ErrorCode where Domain == OIDCError {
    /// The discovery document could not be fetched or parsed.
    public static var discoveryFailed: Self { Self("discovery_failed") }
    /// The provider's key set (`jwks_uri`) could not be fetched: no response, or not HTTP 200.
    /// A key set that arrives but cannot be read is ``invalidMetadata``.
    public static var keySetUnavailable: Self { Self("key_set_unavailable") }
    /// The discovery document's `issuer` differs from the configured issuer (OpenID Connect Discovery §4.3).
    public static var issuerMismatch: Self { Self("issuer_mismatch") }
    /// The metadata lacks an endpoint or value this operation needs, or holds an invalid one.
    public static var invalidMetadata: Self { Self("invalid_metadata") }
    /// The configuration cannot work (a bad redirect URI, no algorithms allowed, ...).
    public static var invalidConfiguration: Self { Self("invalid_configuration") }
    /// The provider does not offer what was asked (no end_session_endpoint, no PAR, no DCR, ...).
    public static var notSupported: Self { Self("not_supported") }
    /// The external user agent could not be started or could not receive the redirect.
    public static var userAgentFailed: Self { Self("user_agent_failed") }
    /// The user cancelled the login or logout.
    public static var cancelled: Self { Self("cancelled") }
    /// An incoming URL answers no login or logout under way (`OIDCClient.resumeExternalUserAgentFlow(with:)`).
    public static var noPendingRequest: Self { Self("no_pending_request") }
    /// An incoming URL answers a login or logout that has already been given its redirect.
    public static var redirectAlreadyDelivered: Self { Self("redirect_already_delivered") }
    /// The user did not come back from the browser in time.
    public static var timedOut: Self { Self("timed_out") }
    /// The authorization response's `state` is not the one sent.
    public static var stateMismatch: Self { Self("state_mismatch") }
    /// The authorization response's `iss` is not the provider's issuer (RFC 9207).
    public static var authorizationIssuerMismatch: Self { Self("authorization_issuer_mismatch") }
    /// The authorization response has no `iss` though the provider promised one (RFC 9207).
    public static var missingAuthorizationIssuer: Self { Self("missing_authorization_issuer") }
    /// The provider answered the authorization request with an error (`error=` in the redirect).
    public static var authorizationError: Self { Self("authorization_error") }
    /// The token endpoint answered with an OAuth error, or with something that is not a token response.
    public static var tokenRequestFailed: Self { Self("token_request_failed") }
    /// The ID token failed validation (signature, algorithm, iss, aud, azp, exp, iat, sub).
    public static var invalidIDToken: Self { Self("invalid_id_token") }
    /// The ID token's `nonce` is not the one sent.
    public static var nonceMismatch: Self { Self("nonce_mismatch") }
    /// The ID token's `at_hash` does not match the access token.
    public static var atHashMismatch: Self { Self("at_hash_mismatch") }
    /// The UserInfo response's `sub` differs from the ID token's (OpenID Connect Core §5.3.2).
    public static var userInfoSubjectMismatch: Self { Self("userinfo_subject_mismatch") }
    /// The UserInfo endpoint answered with an error or with something that is not claims.
    public static var userInfoFailed: Self { Self("userinfo_failed") }
    /// No usable session: the user must log in (again). Stale tokens have been removed.
    public static var loginRequired: Self { Self("login_required") }
    /// Dynamic client registration failed.
    public static var registrationFailed: Self { Self("registration_failed") }
    /// The device authorization endpoint refused the request, or answered what is not one (RFC 8628 §3.2).
    public static var deviceAuthorizationFailed: Self { Self("device_authorization_failed") }
    /// The user did not approve the device login before its code expired (`expired_token`, RFC 8628 §3.5).
    public static var deviceCodeExpired: Self { Self("device_code_expired") }
    /// The user denied the device login (`access_denied`, RFC 8628 §3.5).
    public static var accessDenied: Self { Self("access_denied") }
}
