import HaapiDriver
import HaapiSDK
import OAuthCore

/// An error of a flow, as the view model publishes it.
public struct HaapiFlowError: Error, Sendable {
    /// What went wrong.
    public enum Kind: Sendable {
        /// The server answered with a problem the flow does not handle by itself.
        case problem(KitProblemModel)
        /// The SDK, the network or the server's response failed.
        case failure(any Error)
    }

    /// What went wrong.
    public let kind: Kind
    /// Whether ``HaapiFlowViewModel/retry()`` may succeed (a transient failure); otherwise the
    /// flow is over and a new one must be started.
    public let isRetryable: Bool

    /// A title to show.
    public var title: String {
        switch kind {
        case .problem(let problem): return problem.title ?? problem.message
        case .failure(let error as any IdsvrError): return error.errorDescription ?? error.error
        case .failure: return "The request failed"
        }
    }

    /// The problem, if this is one.
    public var problem: KitProblemModel? {
        if case .problem(let problem) = kind { return problem }
        return nil
    }

    /// The underlying error, if this is a failure.
    public var underlyingError: (any Error)? {
        if case .failure(let error) = kind { return error }
        return nil
    }

    /// An error for a problem (never retryable: the flow must go another way).
    public init(problem: KitProblemModel) {
        kind = .problem(problem)
        isRetryable = false
    }

    /// An error for a failure; retryable when the error says so (a communication failure, a
    /// transient server error).
    public init(failure: any Error) {
        kind = .failure(failure)
        isRetryable = Self.isRetryable(failure)
    }

    static func isRetryable(_ error: any Error) -> Bool {
        guard let error = error as? any IdsvrError, case .retryable = error.recoverySuggestion else { return false }
        return true
    }
}
