import Foundation
import OAuthCore

/// Why an incoming URL did not resume a HAAPI flow (``HaapiDeepLinkManager/resumeFlow(with:)``).
/// Whatever the reason, the flow (if any) goes on waiting as it was.
public struct HaapiDeepLinkError: CodedError, Hashable {
    /// The reason.
    public let code: Code
    /// What happened.
    public let message: String

    /// Makes an error.
    public init(_ code: Code, _ message: String) { (self.code, self.message) = (code, message) }

    /// The same for every reason: the URL is not the return a flow waits for.
    public var failureReason: String { "The URL the app was opened with is not the return a running flow waits for." }
    /// A stale, repeated or foreign link: nothing to do; the flow under way (if any) goes on.
    public var recoverySuggestion: IdsvrErrorHandling { .unrecoverable(action: .introspectCause) }
}

extension ErrorCode where Domain == HaapiDeepLinkError {
    /// No flow waits for an external browser or app to come back.
    public static var noPendingFlow: Self { Self("no_pending_flow") }
    /// The URL is not the app's redirect (scheme, host and path) the flow was configured with.
    public static var notTheAppRedirect: Self { Self("not_the_app_redirect") }
    /// The URL is the app's redirect but carries no `_resume_nonce`.
    public static var missingResumeNonce: Self { Self("missing_resume_nonce") }
    /// The flow has been resumed with this URL's `_resume_nonce` already.
    public static var alreadyDelivered: Self { Self("already_delivered") }
}
