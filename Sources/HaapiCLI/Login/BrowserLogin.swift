import Foundation
import HaapiCLICore
import HaapiUI
import OAuthCore
import OAuthTransportNIO
import OIDCClient

/// `haapi login --browser`: the authorization-code flow in the system browser through
/// OIDCClient (PKCE, state, nonce, ID-token validation), the redirect received on a loopback
/// listener; and `haapi logout --end-session`, RP-initiated logout through the same agent.
struct BrowserLogin {
    let configuration: ProfileConfiguration
    let browserCommand: String?
    /// Whether a browser is started (`--no-browser`: the URL is only printed).
    var startsBrowser = true

    /// The OIDCClient for the profile's settings, keeping its session in `storage`.
    func client(
        storage: any Storage = InMemoryStorage(), storageKey: String = "oidc-auth-state", browserTimeout: TimeInterval = 300
    ) throws -> OIDCClient {
        guard let issuer = configuration.issuer.flatMap(URL.init(string:)) else {
            throw CLIFailure("a browser login needs --issuer (its endpoints come from discovery)")
        }
        guard let redirect = URL(string: configuration.redirectUri) else {
            throw CLIFailure("the redirect URI \(configuration.redirectUri) is not a URL")
        }
        let oidc = OIDCConfiguration(
            issuer: issuer, clientAuthentication: try configuration.clientAuthentication(), redirectURI: redirect,
            postLogoutRedirectURI: configuration.postLogoutRedirectUri.flatMap(URL.init(string:)),
            scopes: configuration.scopes, userAgentTimeout: browserTimeout, useDPoP: configuration.dpop != false)
        return OIDCClient(
            configuration: oidc, transport: try AnnouncedTransport.make(for: configuration), storage: storage, storageKey: storageKey)
    }

    /// The browser of a login (`signingIn`) or of a sign-out.
    func userAgent(signingIn: Bool = true) -> LoopbackUserAgent {
        LoopbackUserAgent(
            launcher: AnnouncingLauncher(
                browser: startsBrowser ? SystemBrowserLauncher(commandLine: browserCommand) : nil, signingIn: signingIn),
            listen: LoopbackRedirectListener.factory(page: ReturnPage.make()))
    }

    /// Says what the command waits for: the browser it started, or (with none, or none that
    /// starts) the URL to open in one.
    struct AnnouncingLauncher: BrowserLauncher {
        let browser: SystemBrowserLauncher?
        /// A login (which a code on another device can do instead), not a sign-out.
        var signingIn = true

        func open(_ url: URL) async throws {
            let shown = PrintableText(url.absoluteString)
            var opening = "Open this URL in a browser on this machine"
            if let browser {
                do {
                    let launched = try await browser.launch(url)
                    Stderr.line("Opened the browser (\(PrintableText(launched.command))) at \(shown)")
                    Stderr.line("Waiting for the browser to come back (if it did not open, open that URL on this machine)...")
                    return
                } catch {
                    // One line: what was tried, and what to do instead.
                    let reason = (error as? OIDCError)?.message ?? Profile.describe(error)
                    opening = reason.prefix(1).uppercased() + reason.dropFirst() + ". Open this URL in a browser on this machine"
                }
            }
            Stderr.line(signingIn ? "\(opening) (or log in with `haapi login --device` from elsewhere):" : "\(opening):")
            Stderr.line("  \(shown)")
            Stderr.line("Waiting for the browser to come back...")
        }
    }

    /// Logs in, the new session kept in `storage` (a profile's, under its lock).
    func run(keepingIn storage: any LockingStorage) async throws -> AuthState {
        let client = try client(storage: storage, storageKey: Profile.tokensKey)
        do {
            return try await client.login(using: userAgent())
        } catch let error as any IdsvrError {
            throw CLIFailure("the browser login failed: \(error.errorDescription ?? error.error)\(Hints.after(error))")
        }
    }

    /// Logs in with the device authorization grant: prints the address and the code to enter
    /// on another device, then waits (polling as the provider asks) until the user approves;
    /// the new session is kept in the profile.
    func runOnAnotherDevice(keepingIn storage: any LockingStorage) async throws -> AuthState {
        let client = try client(storage: storage, storageKey: Profile.tokensKey)
        do {
            let authorization = try await client.startDeviceAuthorization()
            let minutes = max(1, OutsideNumber.wholeSeconds(authorization.expiresAt.timeIntervalSinceNow) / 60)
            Stderr.line("On any device, open \(PrintableText(authorization.verificationURI.absoluteString))")
            Stderr.line("and enter the code \(PrintableText(authorization.userCode)) (it expires in \(minutes) min).")
            if let complete = authorization.verificationURIComplete {
                Stderr.line("Or open \(PrintableText(complete.absoluteString)), which has the code in it.")
            }
            Stderr.line("Waiting for the approval...")
            return try await client.completeDeviceAuthorization(authorization)
        } catch let error as any IdsvrError {
            throw CLIFailure("the device login failed: \(error.errorDescription ?? error.error)\(Hints.after(error))")
        }
    }

    /// Sends the browser to the provider's end_session_endpoint with the ID token, and waits
    /// for it to come back.
    /// The profile's own session is not touched: `haapi logout` revokes and removes it next.
    func endSession(_ tokens: AuthState) async throws {
        // A sign-out page asks at most for a click: a minute is plenty, and a browser that never
        // comes back does not hold the command for five.
        let timeout = 60
        let client = try client(browserTimeout: TimeInterval(timeout))
        do {
            try await client.setAuthState(tokens)
            Stderr.line("Ending the provider's session at its sign-out page; waiting up to \(timeout) s for it to come back...")
            try await client.endSession(using: userAgent(signingIn: false))
        } catch let error as any IdsvrError {
            throw CLIFailure("the provider did not end the session: \(error.errorDescription ?? error.error)")
        }
    }
}
