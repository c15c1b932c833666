// tvOS and watchOS have AuthenticationServices but no ASWebAuthenticationSession.
#if canImport(AuthenticationServices) && !os(tvOS) && !os(watchOS)
import AuthenticationServices
import Foundation

/// The external user agent of an Apple app: `ASWebAuthenticationSession`, which shows the
/// provider's page in a browser sheet sharing Safari's cookies and hands the redirect to
/// the app (the seeds' `OIDExternalUserAgentIOS`).
///
/// The redirect URI is a private-use scheme (`io.example.app:/callback`) or, from iOS 17.4
/// and macOS 14.4, a claimed HTTPS URL; only its scheme is given to the session.
public struct WebAuthenticationSessionUserAgent: ExternalUserAgent {
    /// Supplies the window the sheet is presented on.
    public let presentationContextProvider: @MainActor @Sendable () -> ASPresentationAnchor
    /// Whether to ask for a session that shares no cookies with Safari.
    public var prefersEphemeralWebBrowserSession: Bool

    /// Makes an agent that presents on the window `anchor` returns.
    public init(prefersEphemeralWebBrowserSession: Bool = false, anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) {
        self.presentationContextProvider = anchor
        self.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
    }

    public func startSession(redirectURI: URL) async throws -> any ExternalUserAgentSession {
        guard let scheme = redirectURI.scheme, !scheme.isEmpty else {
            throw OIDCError(.invalidConfiguration, "the redirect URI \(redirectURI.absoluteString) has no scheme")
        }
        return WebAuthenticationSession(
            redirectURI: redirectURI, scheme: scheme, ephemeral: prefersEphemeralWebBrowserSession, anchor: presentationContextProvider)
    }
}

/// One presentation of `ASWebAuthenticationSession`.
struct WebAuthenticationSession: ExternalUserAgentSession {
    let redirectURI: URL
    let scheme: String
    let ephemeral: Bool
    let anchor: @MainActor @Sendable () -> ASPresentationAnchor

    func present(_ url: URL, timeout: Duration) async throws -> URL {
        let scheme = self.scheme, ephemeral = self.ephemeral, anchor = self.anchor
        return try await withThrowingTaskGroup(of: URL.self) { group in
            group.addTask { @MainActor in
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<URL, any Error>) in
                    let session = ASWebAuthenticationSession(url: url, callbackURLScheme: scheme) { callback, error in
                        if let callback {
                            continuation.resume(returning: callback)
                        } else if let error = error as? ASWebAuthenticationSessionError, error.code == .canceledLogin {
                            continuation.resume(throwing: OIDCError(.cancelled, "the user closed the login sheet"))
                        } else {
                            continuation.resume(
                                throwing: OIDCError(.userAgentFailed, "the login sheet failed", cause: error))
                        }
                    }
                    let provider = PresentationAnchorProvider(anchor: anchor)
                    session.presentationContextProvider = provider
                    session.prefersEphemeralWebBrowserSession = ephemeral
                    if !session.start() {
                        continuation.resume(throwing: OIDCError(.userAgentFailed, "the login sheet could not be started"))
                    }
                    // The session holds its provider weakly: keep it alive as long as the session.
                    objc_setAssociatedObject(session, &PresentationAnchorProvider.key, provider, .OBJC_ASSOCIATION_RETAIN)
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw OIDCError(.timedOut, "the login sheet was not completed within \(timeout)")
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    func close() async {}
}

/// Answers `ASWebAuthenticationSession`'s question for a window.
private final class PresentationAnchorProvider: NSObject, ASWebAuthenticationPresentationContextProviding {
    nonisolated(unsafe) static var key: UInt8 = 0
    let anchor: @MainActor @Sendable () -> ASPresentationAnchor

    init(anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) { self.anchor = anchor }

    // Nonisolated so it satisfies the requirement whether or not the SDK marks it @MainActor;
    // AuthenticationServices calls it on the main thread.
    nonisolated func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
        MainActor.assumeIsolated { anchor() }
    }
}
#endif
