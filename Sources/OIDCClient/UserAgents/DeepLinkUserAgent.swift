import Foundation
import OAuthCore

/// The external user agent of an app that receives the provider's redirect as a URL it is
/// opened with (RFC 8252 §7.1 private-use URI scheme, §7.2 claimed `https` redirect / universal
/// link): it opens the request with ``open`` (the system browser, an in-app browser, a test's
/// browser) and waits until the app hands the redirect over with
/// ``OIDCClient/resumeExternalUserAgentFlow(with:)``.
///
/// ```swift
/// try await client.login(using: DeepLinkUserAgent { url in await UIApplication.shared.open(url) })
/// // in .onOpenURL / application(_:open:options:) / the universal link's NSUserActivity:
/// if client.isOAuthResponse(url) { try client.resumeExternalUserAgentFlow(with: url) }
/// ```
public struct DeepLinkUserAgent: ExternalUserAgent {
    /// Opens a request URL in the browser.
    public let open: @Sendable (URL) async throws -> Void

    /// An agent that opens requests with `open`.
    public init(open: @escaping @Sendable (URL) async throws -> Void) {
        self.open = open
    }

    /// A session that opens the request with ``open`` and waits for the app to hand the redirect over.
    /// - Throws: ``/OAuthCore/OIDCError`` `OIDCError.Code.invalidConfiguration` when `redirectURI` is `http`, or a
    ///   claimed `https` URI without a host.
    public func startSession(redirectURI: URL) async throws -> any ExternalUserAgentSession {
        guard let scheme = redirectURI.scheme?.lowercased(), scheme != "http" else {
            throw OIDCError(
                .invalidConfiguration,
                "a deep-link redirect URI has a private-use scheme or is a claimed https URL, not \(redirectURI.absoluteString)")
        }
        if scheme == "https", redirectURI.host?.isEmpty != false {
            throw OIDCError(.invalidConfiguration, "a claimed https redirect URI names its host: \(redirectURI.absoluteString)")
        }
        return DeepLinkSession(redirectURI: redirectURI, open: open, inbox: RedirectInbox())
    }
}

/// One request through a ``DeepLinkUserAgent``: the client registers its ``inbox`` as the
/// pending request, the app's resume fills it.
struct DeepLinkSession: ExternalUserAgentSession {
    let redirectURI: URL
    let open: @Sendable (URL) async throws -> Void
    let inbox: RedirectInbox

    func present(_ url: URL, timeout: TimeInterval) async throws -> URL {
        do {
            try await open(url)
        } catch {
            throw OIDCError(.userAgentFailed, "the browser could not be opened on the request", cause: error)
        }
        return try await inbox.wait(timeout: timeout, redirectURI: redirectURI)
    }

    func close() async {}
}

/// Where an incoming redirect is handed to the request waiting for it: filled once, by the
/// app's resume or cancel; waited for once, by the session.
final class RedirectInbox: Sendable {
    private struct State {
        var result: Result<URL, OIDCError>?
        var waiter: CheckedContinuation<URL, any Error>?
    }

    private let state = LockedValue(State())

    /// Fills the inbox; a second filling is ignored.
    func deliver(_ result: Result<URL, OIDCError>) {
        let waiter = state.withLock { state -> CheckedContinuation<URL, any Error>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(with: result.mapError { $0 as any Error })
    }

    /// The redirect, when it comes within `timeout` seconds.
    /// - Throws: ``/OAuthCore/OIDCError`` `OIDCError.Code.timedOut`, `OIDCError.Code.cancelled` (by the app or the calling task).
    func wait(timeout: TimeInterval, redirectURI: URL) async throws -> URL {
        let cancelled = { @Sendable in OIDCError(.cancelled, "the login was cancelled before the app was opened with its redirect") }
        return try await withDeadline(
            Deadline(secondsFromNow: timeout),
            timedOut: {
                OIDCError(.timedOut, "the app was not opened with \(redirectURI.absoluteString) within \(WaitTime.text(timeout))")
            },
            cancelled: cancelled
        ) {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let ready = self.state.withLock { state -> Result<URL, OIDCError>? in
                        if state.result == nil { state.waiter = continuation }
                        return state.result
                    }
                    if let ready { continuation.resume(with: ready.mapError { $0 as any Error }) }
                }
            } onCancel: {
                self.deliver(.failure(cancelled()))
            }
        }
    }
}

/// A request waiting for its redirect to come back through the app.
struct PendingRedirect: Sendable {
    /// The redirect URI the request names.
    let redirectURI: URL
    /// The request's `state`.
    let state: String
    /// Where the redirect goes.
    let inbox: RedirectInbox

    /// Whether `url` is this request's redirect URI: same scheme and host (without regard to
    /// case), port and path.
    func isRedirectURI(_ url: URL) -> Bool {
        url.scheme?.lowercased() == redirectURI.scheme?.lowercased() && url.host?.lowercased() == redirectURI.host?.lowercased()
            && url.port == redirectURI.port && Self.path(of: url) == Self.path(of: redirectURI)
    }

    /// The path, `/` for none (`com.example:/cb` and `com.example:/cb/` stay different).
    private static func path(of url: URL) -> String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.path ?? ""
        return path.isEmpty ? "/" : path
    }

    /// The `state` parameter of `url`.
    static func state(of url: URL) -> String? { url.queryParameter("state") }
}
