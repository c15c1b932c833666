/// The metadata every public error of this package carries: what happened, why, and
/// what the app can do about it.
///
/// Switch on ``recoverySuggestion`` to decide between retrying, starting a new login,
/// or fixing something that no retry will fix.
public protocol IdsvrError: Error, Sendable, CustomStringConvertible {
    /// A short, stable error code, such as `invalid_signature`.
    var error: String { get }
    /// A one-line description of what happened.
    var errorDescription: String { get }
    /// Why it happened, as far as the package knows.
    var failureReason: String { get }
    /// What the app can do about it.
    var recoverySuggestion: IdsvrErrorHandling { get }
    /// The lower-level error that caused this one, if any.
    var cause: (any Error)? { get }
}

extension IdsvrError {
    public var cause: (any Error)? { nil }

    public var description: String {
        var text = "\(error): \(errorDescription)"
        if !failureReason.isEmpty, failureReason != errorDescription { text += " (\(failureReason))" }
        return text
    }
}

/// How an ``IdsvrError`` can be recovered from.
public enum IdsvrErrorHandling: Sendable, Hashable {
    /// The same operation may succeed if retried once `condition` holds.
    case retryable(condition: RetryCondition)
    /// The operation cannot go on; starting a new authentication flow (a new login) may succeed.
    case newHaapiFlow
    /// No retry helps until `action` is taken by a developer or operator.
    case nonRecoverable(action: UnrecoverableAction)
}

/// When a retryable operation is worth trying again.
public enum RetryCondition: Sendable, Hashable {
    /// Right away: the failure was transient.
    case immediately
    /// After waiting at least this many seconds (for example, a server's `Retry-After`).
    case afterDelay(seconds: Double)
    /// Once the network is reachable again.
    case whenNetworkAvailable
    /// Once the app is in the foreground, when device resources such as secure key storage are available.
    case whenInForeground
    /// At some later time; the cause is outside the app's control.
    case later
}

/// What must change before a non-recoverable operation can succeed.
public enum UnrecoverableAction: Sendable, Hashable {
    /// The app's configuration is wrong (client id, URLs, keys, algorithms, ...).
    case fixClientConfiguration
    /// The server's configuration or behaviour is wrong.
    case fixServerConfiguration
    /// The device or platform cannot do what is asked (for example, no secure key storage).
    case useAnotherConfiguration
    /// The input given to the package is invalid and must be corrected by the caller.
    case fixInput
    /// A defect in this package or in the app; report it.
    case reportIssue
}
