// Desktop and terminal apps only: Process (the browser) and a loopback listener do not exist on iOS.
#if os(macOS) || os(Linux) || os(Windows)
    import OAuthCore
    import Foundation

    /// The external user agent of a terminal or desktop app on Linux and macOS (RFC 8252 §7.3):
    /// a ``/OAuthCore/RedirectListener`` on `127.0.0.1` that lives only for the request (`OAuthTransportNIO`'s
    /// `LoopbackRedirectListener.factory` starts one), and a ``BrowserLauncher`` that opens the
    /// provider's page.
    ///
    /// The redirect URI must be `http://127.0.0.1:PORT/path` (or `localhost`, though RFC 8252
    /// §8.3 prefers the IP literal). Port `0`, or no port, listens on any free port and sends
    /// that one; a fixed port is for providers that match the port exactly.
    public struct LoopbackUserAgent: ExternalUserAgent {
        /// What opens the browser.
        public var launcher: any BrowserLauncher
        /// What receives the browser's return.
        public var listen: RedirectListenerFactory

        /// An agent that opens pages with `launcher` (the system browser by default) and hears the
        /// return with listeners from `listen`.
        public init(launcher: any BrowserLauncher = SystemBrowserLauncher(), listen: @escaping RedirectListenerFactory) {
            self.launcher = launcher
            self.listen = listen
        }

        /// An agent that runs `browserCommand` (program and leading arguments) with the URL as
        /// its last argument, or the system browser when `nil`.
        public init(browserCommand: [String]?, listen: @escaping RedirectListenerFactory) {
            self.init(launcher: SystemBrowserLauncher(command: browserCommand), listen: listen)
        }

        /// Whether the agent's listener can receive a redirect to `redirectURI`: `http` to this
        /// machine over IPv4 (the listener binds `127.0.0.1`, so `[::1]` would never reach it).
        public static func serves(_ redirectURI: URL) -> Bool {
            Loopback.isHTTP(redirectURI) && redirectURI.host?.contains(":") == false
        }

        /// Starts a listener on `127.0.0.1` at the redirect URI's port (any free one for 0 or none) and path; the
        /// session's redirect URI has the actual port.
        /// - Throws: ``/OAuthCore/OIDCError`` `OIDCError.Code.invalidConfiguration` when ``serves(_:)`` says no;
        ///   `OIDCError.Code.userAgentFailed` when the listener cannot start.
        public func startSession(redirectURI: URL) async throws -> any ExternalUserAgentSession {
            guard Self.serves(redirectURI) else {
                throw OIDCError(
                    .invalidConfiguration,
                    "a loopback redirect URI is http://127.0.0.1:PORT/path, not \(redirectURI.absoluteString)")
            }
            let listener: any RedirectListener
            do {
                listener = try await listen(redirectURI.port ?? 0, redirectURI.path)
            } catch {
                let reason = (error as? HTTPTransportError)?.underlying ?? "\(error)"
                throw OIDCError(
                    .userAgentFailed,
                    "cannot listen on 127.0.0.1:\(redirectURI.port ?? 0) for the browser's redirect (is another login running?): \(reason)",
                    cause: error)
            }
            var components = URLComponents(url: redirectURI, resolvingAgainstBaseURL: false)!
            components.port = listener.port
            return LoopbackSession(redirectURI: components.url!, listener: listener, launcher: launcher)
        }
    }

    /// One login through the loopback listener.
    struct LoopbackSession: ExternalUserAgentSession {
        let redirectURI: URL
        let listener: any RedirectListener
        let launcher: any BrowserLauncher

        func present(_ url: URL, timeout: TimeInterval) async throws -> URL {
            do {
                try await launcher.open(url)
            } catch {
                await listener.close()
                throw error
            }
            let listener = self.listener
            let redirectURI = self.redirectURI
            let timedOut = { @Sendable in
                OIDCError(.timedOut, "the browser did not come back to \(redirectURI.absoluteString) within \(WaitTime.text(timeout))")
            }
            let received: URL
            do {
                received = try await withDeadline(
                    Deadline(secondsFromNow: timeout), timedOut: timedOut,
                    cancelled: { OIDCError(.cancelled, "the login was cancelled before the browser came back") }
                ) {
                    // nil: the listener stopped (or the wait was cancelled) without a redirect.
                    guard let url = await listener.redirect() else { throw timedOut() }
                    return url
                }
            } catch {
                await listener.close()
                throw error
            }
            await listener.close()
            return received
        }

        func close() async { await listener.close() }
    }
#endif
