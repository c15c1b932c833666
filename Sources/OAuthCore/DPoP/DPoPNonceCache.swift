import Foundation

/// The latest `DPoP-Nonce` each origin (scheme, host, port) has sent (RFC 9449 §8 and §9).
///
/// Every response is offered to ``learn(from:)``, so the next proof to that origin carries
/// the server's newest nonce without a failed round trip.
public final class DPoPNonceCache: Sendable {
    private let nonces = LockedValue<[String: String]>([:])

    /// An empty cache.
    public init() {}

    /// The nonce to send to the origin of `url`, if it gave one.
    public func nonce(for url: URL) -> String? {
        url.origin.flatMap(nonce(forOrigin:))
    }

    func nonce(forOrigin origin: String) -> String? {
        nonces.withLock { $0[origin] }
    }

    /// Remembers the `DPoP-Nonce` of a response, if it has one, and returns it.
    @discardableResult
    public func learn(from response: TransportResponse) -> String? {
        guard let nonce = response.headers["DPoP-Nonce"], !nonce.isEmpty, let origin = response.url.origin else {
            return nil
        }
        nonces.withLock { $0[origin] = nonce }
        return nonce
    }

    /// Forgets every nonce.
    public func removeAll() { nonces.withLock { $0.removeAll() } }
}

extension URL {
    /// `scheme://host:port`, lower case, with the scheme's default port made explicit (for
    /// comparing origins: DPoP nonces, where a token may be sent).
    package var origin: String? { TargetParts(self)?.origin }

    /// The DPoP `htu` of a request to this URL: scheme, host, port and path, without query
    /// and fragment (RFC 9449 §4.2); scheme and host lower case, a default port left out.
    public var dpopHTU: String { TargetParts(self)?.htu ?? absoluteString }
}

/// The pieces of an absolute URL that DPoP uses, read straight from its text: a proof is
/// made for every request, and this is several times cheaper than `URLComponents`.
struct TargetParts {
    let scheme: String
    /// Lower-case host, IPv6 literals in brackets.
    let host: String
    /// The port, unless it is the scheme's default.
    let port: Int?
    /// The percent-encoded path, `/` when empty.
    let path: String

    /// `scheme://host:port`, the default port of http and https made explicit (other schemes
    /// have none): the key of the nonce cache, and what "the same server" means.
    var origin: String {
        let effectivePort = port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
        return "\(scheme)://\(host)" + (effectivePort.map { ":\($0)" } ?? "")
    }

    /// scheme, host, port (unless default) and path.
    var htu: String { "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")\(path)" }

    init?(_ url: URL) {
        // Works on UTF-8 bytes: Character iteration (grapheme breaking) costs more than the rest of a proof.
        let bytes = Array(url.absoluteString.utf8)
        let slash = UInt8(ascii: "/")
        let question = UInt8(ascii: "?")
        let hash = UInt8(ascii: "#")
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon + 2 < bytes.count,
            bytes[colon + 1] == slash, bytes[colon + 2] == slash
        else { return nil }
        func lowered(_ slice: ArraySlice<UInt8>) -> String {
            String(decoding: slice.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
        scheme = lowered(bytes[..<colon])
        let authorityStart = colon + 3
        let authorityEnd = bytes[authorityStart...].firstIndex { $0 == slash || $0 == question || $0 == hash } ?? bytes.count
        var hostStart = authorityStart
        if let at = bytes[authorityStart..<authorityEnd].lastIndex(of: UInt8(ascii: "@")) { hostStart = at + 1 }
        var hostEnd = authorityEnd
        var port: Int?
        if let portColon = bytes[hostStart..<authorityEnd].lastIndex(of: UInt8(ascii: ":")),
            !bytes[portColon..<authorityEnd].contains(UInt8(ascii: "]"))
        {
            hostEnd = portColon
            port = Int(String(decoding: bytes[(portColon + 1)..<authorityEnd], as: UTF8.self))
        }
        guard hostEnd > hostStart else { return nil }
        host = lowered(bytes[hostStart..<hostEnd])
        if (scheme == "https" && port == 443) || (scheme == "http" && port == 80) { port = nil }
        self.port = port
        let pathEnd = bytes[authorityEnd...].firstIndex { $0 == question || $0 == hash } ?? bytes.count
        path = pathEnd > authorityEnd ? String(decoding: bytes[authorityEnd..<pathEnd], as: UTF8.self) : "/"
    }
}
