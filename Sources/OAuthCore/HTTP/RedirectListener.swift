import Foundation

/// Receives one redirect on the loopback interface (RFC 8252 §7.3): the browser's return to a
/// desktop or terminal app. `OAuthTransportNIO`'s `LoopbackRedirectListener` is one; a
/// browser login's loopback user agent starts one per login through a ``RedirectListenerFactory``.
public protocol RedirectListener: Sendable {
    /// The port listened on (the actual one when port 0 was asked for).
    var port: Int { get }
    /// Waits for the redirect: its URL, or `nil` when the listener was closed first.
    func redirect() async -> URL?
    /// Stops listening. Safe to call more than once.
    func close() async
}

/// Starts a ``RedirectListener`` on `127.0.0.1:port` (`0`: any free port) for requests to `path`.
public typealias RedirectListenerFactory = @Sendable (_ port: Int, _ path: String) async throws -> any RedirectListener
