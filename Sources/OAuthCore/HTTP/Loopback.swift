import Foundation

/// This machine's loopback interface, defined once for the package: which hosts count as
/// loopback, for redirect URIs (RFC 8252 §7.3, §8.3), for plain `http` that is still safe (it never
/// leaves the machine), and for what a browser may be sent to.
package enum Loopback {
    /// Whether `host` is a loopback IP literal: `127.0.0.1`, or `::1` with or without its URL
    /// brackets. RFC 8252 §7.3 builds loopback redirect URIs from these, and an authorization
    /// server lets their port vary (§8.3).
    package static func isIPLiteral(_ host: String?) -> Bool {
        guard let host = host?.lowercased() else { return false }
        return host == "127.0.0.1" || host == "::1" || host == "[::1]"
    }

    /// Whether `host` names this machine: any address of IPv4's loopback block (127.0.0.0/8, RFC
    /// 1122 §3.2.1.3: `127.0.0.2` too), `::1`, or `localhost` (RFC 6761 §6.3). RFC 8252 §8.3
    /// advises against `localhost` in redirect URIs, since it may resolve elsewhere: where the
    /// port is allowed to vary, use ``isIPLiteral(_:)``.
    package static func isHost(_ host: String?) -> Bool {
        guard let host = host?.lowercased() else { return false }
        if isIPLiteral(host) || host == "localhost" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127"
            && parts.allSatisfy { part in
                part.count <= 3 && !part.isEmpty && part.utf8.allSatisfy { (48...57).contains($0) } && (UInt16(part) ?? 256) <= 255
            }
    }

    /// Whether `url` is plain `http` to this machine.
    package static func isHTTP(_ url: URL) -> Bool {
        url.scheme?.lowercased() == "http" && isHost(url.host)
    }
}
