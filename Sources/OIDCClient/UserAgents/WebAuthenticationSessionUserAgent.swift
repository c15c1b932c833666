// tvOS and watchOS have AuthenticationServices but no ASWebAuthenticationSession.
#if canImport(AuthenticationServices) && !os(tvOS) && !os(watchOS)
    import AuthenticationServices
    import Foundation

    /// The external user agent of an Apple app: `ASWebAuthenticationSession`, which shows the
    /// provider's page in a browser sheet sharing Safari's cookies and hands the redirect to
    /// the app (the seeds' `OIDExternalUserAgentIOS`).
    ///
    /// The redirect URI is a private-use scheme (`io.example.app:/callback`) or, from iOS 17.4
    /// and macOS 14.4, a claimed HTTPS URL of a domain associated with the app (the session then
    /// matches its host and path, `ASWebAuthenticationSession.Callback.https(host:path:)`). Before
    /// 17.4 only private-use schemes can be caught by the sheet; a claimed HTTPS redirect then
    /// takes ``DeepLinkUserAgent`` and the app's universal-link handling.
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

        /// A session that shows the request in a login sheet and catches the redirect by its scheme, or by host
        /// and path for a claimed `https` URI.
        /// - Throws: ``/OAuthCore/OIDCError`` `OIDCError.Code.invalidConfiguration` when the URI has no scheme, or is
        ///   `https` without a host or before iOS 17.4 / macOS 14.4.
        public func startSession(redirectURI: URL) async throws -> any ExternalUserAgentSession {
            guard let scheme = redirectURI.scheme?.lowercased(), !scheme.isEmpty else {
                throw OIDCError(.invalidConfiguration, "the redirect URI \(redirectURI.absoluteString) has no scheme")
            }
            if scheme == "https" {
                guard #available(iOS 17.4, macOS 14.4, macCatalyst 17.4, visionOS 1.1, *) else {
                    throw OIDCError(
                        .invalidConfiguration,
                        "the login sheet catches claimed https redirects from iOS 17.4 / macOS 14.4 on; use DeepLinkUserAgent with universal links"
                    )
                }
                guard redirectURI.host?.isEmpty == false else {
                    throw OIDCError(.invalidConfiguration, "the claimed https redirect URI \(redirectURI.absoluteString) has no host")
                }
            }
            return WebAuthenticationSession(
                redirectURI: redirectURI, ephemeral: prefersEphemeralWebBrowserSession, anchor: presentationContextProvider)
        }
    }

    /// One presentation of `ASWebAuthenticationSession`.
    struct WebAuthenticationSession: ExternalUserAgentSession {
        let redirectURI: URL
        let ephemeral: Bool
        let anchor: @MainActor @Sendable () -> ASPresentationAnchor

        /// The session's completion handler, made outside the main actor: a closure written in
        /// main-actor code is isolated to it, and Swift checks the thread when the system calls it,
        /// which it may do off the main thread. This one only hops to the main actor.
        private nonisolated static func completion(finishing sheet: Sheet) -> ASWebAuthenticationSession.CompletionHandler {
            { callback, error in
                let result: Result<URL, any Error>
                if let callback {
                    result = .success(callback)
                } else if let error = error as? ASWebAuthenticationSessionError, error.code == .canceledLogin {
                    result = .failure(OIDCError(.cancelled, "the login sheet was closed"))
                } else {
                    result = .failure(OIDCError(.userAgentFailed, "the login sheet failed", cause: error))
                }
                Task { @MainActor in sheet.finish(result) }
            }
        }

        func present(_ url: URL, timeout: TimeInterval) async throws -> URL {
            let redirectURI = self.redirectURI
            let ephemeral = self.ephemeral
            let anchor = self.anchor
            let sheet = await Sheet()
            return try await withDeadline(
                Deadline(secondsFromNow: timeout),
                timedOut: { OIDCError(.timedOut, "the login sheet was not completed within \(WaitTime.text(timeout))") },
                cancelled: { OIDCError(.cancelled, "the login was cancelled") }
            ) { @MainActor in
                try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<URL, any Error>) in
                        guard sheet.wait(continuation) else { return }
                        let session = Self.session(url: url, redirectURI: redirectURI, completion: Self.completion(finishing: sheet))
                        let provider = PresentationAnchorProvider(anchor: anchor)
                        session.presentationContextProvider = provider
                        session.prefersEphemeralWebBrowserSession = ephemeral
                        // The session holds its provider weakly: keep it alive as long as the session.
                        objc_setAssociatedObject(session, &PresentationAnchorProvider.key, provider, .OBJC_ASSOCIATION_RETAIN)
                        sheet.session = session
                        if !session.start() {
                            sheet.finish(.failure(OIDCError(.userAgentFailed, "the login sheet could not be started")))
                        }
                    }
                } onCancel: {
                    // A timeout or a cancelled task closes the sheet and ends the wait (the race waits for it).
                    Task { @MainActor in sheet.close() }
                }
            }
        }

        /// The session for `redirectURI`: a claimed https redirect matched by host and path (iOS 17.4,
        /// macOS 14.4), a private-use scheme by its scheme.
        @MainActor private static func session(
            url: URL, redirectURI: URL, completion: @escaping ASWebAuthenticationSession.CompletionHandler
        ) -> ASWebAuthenticationSession {
            let scheme = redirectURI.scheme?.lowercased() ?? ""
            if #available(iOS 17.4, macOS 14.4, macCatalyst 17.4, visionOS 1.1, *) {
                let callback: ASWebAuthenticationSession.Callback =
                    scheme == "https"
                    ? .https(host: redirectURI.host ?? "", path: redirectURI.path.isEmpty ? "/" : redirectURI.path)
                    : .customScheme(scheme)
                return ASWebAuthenticationSession(url: url, callback: callback, completionHandler: completion)
            }
            return ASWebAuthenticationSession(url: url, callbackURLScheme: scheme, completionHandler: completion)
        }

        func close() async {}
    }

    /// The session on screen, for closing it from outside the main-actor task that made it.
    /// One sheet's session and its waiting caller, which it answers once: with the session's
    /// completion, or when the sheet is closed for a timeout or a cancellation (whichever comes first;
    /// the wait does not depend on `cancel()` calling the completion).
    @MainActor private final class Sheet {
        var session: ASWebAuthenticationSession?
        private var waiter: CheckedContinuation<URL, any Error>?
        private var closed = false

        /// Keeps `continuation` to answer; false (and answered) when the sheet is already closed.
        func wait(_ continuation: CheckedContinuation<URL, any Error>) -> Bool {
            guard !closed else {
                continuation.resume(throwing: OIDCError(.cancelled, "the login was cancelled"))
                return false
            }
            waiter = continuation
            return true
        }

        /// Answers the waiting caller with `result`, when it has not been answered yet.
        func finish(_ result: Result<URL, any Error>) {
            waiter?.resume(with: result)
            waiter = nil
        }

        /// Closes the sheet and ends the wait as cancelled.
        func close() {
            closed = true
            session?.cancel()
            finish(.failure(OIDCError(.cancelled, "the login was cancelled")))
        }
    }

    /// Answers `ASWebAuthenticationSession`'s question for a window.
    private final class PresentationAnchorProvider: NSObject, ASWebAuthenticationPresentationContextProviding {
        nonisolated(unsafe) static var key: UInt8 = 0
        let anchor: @MainActor @Sendable () -> ASPresentationAnchor

        init(anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) { self.anchor = anchor }

        // Nonisolated so it satisfies the requirement whether or not the SDK marks it @MainActor;
        // AuthenticationServices calls it on the main thread.
        nonisolated func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
            MainActor.onMainThread { anchor() }
        }
    }
#endif
