import Foundation
import NIOConcurrencyHelpers

/// The latest `DPoP-Nonce` each origin (scheme, host, port) has sent (RFC 9449 §8 and §9).
///
/// Every response is offered to ``learn(from:)``, so the next proof to that origin carries
/// the server's newest nonce without a failed round trip.
public final class DPoPNonceCache: Sendable {
    private let nonces = NIOLockedValueBox<[String: String]>([:])

    /// An empty cache.
    public init() {}

    /// The nonce to send to the origin of `url`, if it gave one.
    public func nonce(for url: URL) -> String? {
        guard let origin = url.origin else { return nil }
        return nonces.withLockedValue { $0[origin] }
    }

    /// Remembers the `DPoP-Nonce` of a response, if it has one, and returns it.
    @discardableResult
    public func learn(from response: TransportResponse) -> String? {
        guard let nonce = response.headers["DPoP-Nonce"], !nonce.isEmpty, let origin = response.url.origin else {
            return nil
        }
        nonces.withLockedValue { $0[origin] = nonce }
        return nonce
    }

    /// Forgets every nonce.
    public func removeAll() { nonces.withLockedValue { $0.removeAll() } }
}

extension URL {
    /// `scheme://host:port`, lower case, with the scheme's default port made explicit.
    var origin: String? {
        guard let scheme = scheme?.lowercased(), let host = host?.lowercased() else { return nil }
        let port = port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        return "\(scheme)://\(host):\(port)"
    }

    /// The DPoP `htu` of a request to this URL: scheme, host, port and path, without query
    /// and fragment (RFC 9449 §4.2); scheme and host lower case, a default port left out.
    public var dpopHTU: String {
        guard let components = URLComponents(url: self, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), let host = components.percentEncodedHost?.lowercased()
        else { return absoluteString }
        var text = "\(scheme)://\(host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host)"
        if let port = components.port, !(scheme == "https" && port == 443), !(scheme == "http" && port == 80) {
            text += ":\(port)"
        }
        let path = components.percentEncodedPath
        return text + (path.isEmpty ? "/" : path)
    }
}
