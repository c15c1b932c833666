import Foundation
import OAuthCore

/// The browser a login or logout runs in (RFC 8252 §3): it opens the provider's page and
/// hands back the URL the provider redirected to.
///
/// The seam between the protocol code and the platform: ``LoopbackUserAgent`` on Linux and
/// macOS terminals, `WebAuthenticationSessionUserAgent` on Apple platforms, or a test double.
/// Two steps, because a loopback redirect URI is only known once a port is bound, and the
/// authorization request must name it.
public protocol ExternalUserAgent: Sendable {
    /// Gets ready to receive a redirect to `redirectURI` (for a loopback agent: starts listening).
    /// - Returns: a session whose ``ExternalUserAgentSession/redirectURI`` is the URI to send
    ///   in the request (with the actual port when `redirectURI` asked for any free one).
    /// - Throws: ``/OAuthCore/OIDCError`` `OIDCError.Code.userAgentFailed` or `OIDCError.Code.invalidConfiguration`.
    func startSession(redirectURI: URL) async throws -> any ExternalUserAgentSession
}

/// One use of an ``ExternalUserAgent``: one request presented, one redirect received.
public protocol ExternalUserAgentSession: Sendable {
    /// The redirect URI this session receives.
    var redirectURI: URL { get }
    /// Opens `url` and waits for the redirect, at most `timeout` seconds.
    /// - Returns: the full URL the browser was sent back to (query included).
    /// - Throws: ``/OAuthCore/OIDCError`` `OIDCError.Code.timedOut` when nothing comes back within `timeout`,
    ///   `OIDCError.Code.cancelled` when the user or the calling task cancels,
    ///   `OIDCError.Code.userAgentFailed` when the browser cannot be opened.
    func present(_ url: URL, timeout: TimeInterval) async throws -> URL
    /// Releases what the session holds (the loopback port). Safe to call more than once.
    func close() async
}
