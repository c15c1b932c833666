import Foundation

/// The metadata every public error of this package carries: what happened, why, and
/// what the app can do about it (Curity's `IdsvrError`).
///
/// Switch on ``recoverySuggestion`` to decide between retrying, starting a new login,
/// or fixing something that no retry will fix. Its cases are exactly Curity's, so an app's
/// exhaustive `switch` written for Curity's SDK compiles here; what this package knows beyond
/// them is in extra members: ``retryAfter`` (how long a busy server asked to wait) and the
/// error's own `code` (a timeout, a refused connection, ...).
public protocol IdsvrError: Error, Sendable, CustomStringConvertible {
    /// A short, stable error code, such as `invalid_signature`.
    var error: String { get }
    /// A one-line description of what happened; every error of this package has one.
    var errorDescription: String? { get }
    /// Why it happened, as far as the package knows.
    var failureReason: String { get }
    /// What the app can do about it.
    var recoverySuggestion: IdsvrErrorHandling { get }
    /// The lower-level error that caused this one, if any.
    var cause: (any Error)? { get }
    /// How many seconds the server asked to wait before a retry (`Retry-After`), when it did.
    /// An addition to Curity's protocol: a ``IdsvrErrorHandling/retryable(condition:)`` error
    /// with a `retryAfter` is worth retrying once that time has passed.
    var retryAfter: TimeInterval? { get }
}

extension IdsvrError {
    /// None, unless the error says otherwise.
    public var cause: (any Error)? { nil }

    /// The cause's, when the cause is an ``IdsvrError``; otherwise none.
    public var retryAfter: TimeInterval? { (cause as? any IdsvrError)?.retryAfter }

    /// The code and the description, then the reason in parentheses when it adds to them: `invalid_grant: the
    /// refresh token expired (...)`.
    public var description: String {
        let summary = errorDescription ?? error
        var text = "\(error): \(summary)"
        if !failureReason.isEmpty, failureReason != summary { text += " (\(failureReason))" }
        return text
    }
}

/// How an ``IdsvrError`` can be recovered from (Curity's `IdsvrErrorHandling`).
public enum IdsvrErrorHandling: Sendable, Hashable {
    /// The same operation may succeed if retried once `condition` holds (and, when the
    /// error has a ``IdsvrError/retryAfter``, once that time has passed).
    case retryable(condition: RetryCondition)
    /// The operation cannot go on; starting a new authentication flow (a new login) may succeed.
    case newHaapiFlow
    /// No retry helps until `action` is taken by a developer or operator.
    case unrecoverable(action: UnrecoverableAction)
}

/// When a retryable operation is worth trying again (Curity's `RetryCondition`).
public enum RetryCondition: Sendable, Hashable {
    /// Now: the failure was transient (a network failure, a busy server, a stale nonce).
    case now
    /// Once the app is in the foreground, when device resources such as the Keychain or the
    /// Secure Enclave are available again.
    case whenAppInForeground
}

/// What must change before an unrecoverable operation can succeed (Curity's `UnrecoverableAction`).
public enum UnrecoverableAction: Sendable, Hashable {
    /// The app's configuration is wrong (client id, URLs, keys, algorithms, ...); `reason` says what.
    case modifyConfiguration(reason: String)
    /// Something unexpected happened (a server answering out of protocol, a token that fails
    /// validation, a defect): look at the error's ``IdsvrError/cause`` and failure reason.
    case introspectCause
    /// This device or platform cannot do what is asked (no attestation, no secure key storage).
    case invalidPlatform
}

extension IdsvrErrorHandling {
    /// The recovery a server's status and `Retry-After` decide: retryable now when it asked to
    /// wait, is failing (5xx) or is busy (429); otherwise the answer says nothing a retry can
    /// mend, and the error's cause says what went wrong.
    package static func forServerAnswer(status: Int?, retryAfter: Double?) -> IdsvrErrorHandling {
        if retryAfter != nil { return .retryable(condition: .now) }
        guard let status, status >= 500 || status == 429 else { return .unrecoverable(action: .introspectCause) }
        return .retryable(condition: .now)
    }

    /// The recovery an OAuth `error` code decides, wherever it came from (a token, PAR, device
    /// authorization or authorization endpoint): a new login when the grant or the user's
    /// session is gone, a retry when the server is busy or asks again, else the configuration
    /// (client, scope, redirect) must change, as `reason` says.
    package static func forOAuthError(_ code: String, reason: String) -> IdsvrErrorHandling {
        switch code {
        case "invalid_grant", "access_denied", "expired_token", "login_required", "interaction_required", "consent_required",
            "account_selection_required":
            return .newHaapiFlow
        case "temporarily_unavailable", "server_error", "use_dpop_nonce", "slow_down", "authorization_pending":
            return .retryable(condition: .now)
        default:
            return .unrecoverable(action: .modifyConfiguration(reason: reason))
        }
    }
}

extension Error {
    /// This error, then its ``IdsvrError/cause``, then that one's, and so on (at most eight:
    /// a chain is a few links long, and a cycle must not loop).
    package var causeChain: [any Error] {
        var chain: [any Error] = [self]
        while chain.count < 8, let next = (chain[chain.count - 1] as? any IdsvrError)?.cause { chain.append(next) }
        return chain
    }

    /// The first error of type `T` in ``causeChain``: this error or one of its causes.
    package func firstCause<T: Error>(_ type: T.Type = T.self) -> T? {
        for error in causeChain { if let found = error as? T { return found } }
        return nil
    }
}
