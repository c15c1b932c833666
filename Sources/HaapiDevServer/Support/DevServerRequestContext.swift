import Hummingbird
import NIOCore

/// The context of one request to the development server: Hummingbird's basics, and the address
/// the connection came from, which rate limits count by (so one client's flood slows only itself).
public struct DevServerRequestContext: RequestContext, RemoteAddressRequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The peer of the connection the request came on.
    public let remoteAddress: SocketAddress?

    /// Makes the context of a request arriving on `source`'s channel.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }

    /// Who sent the request, as a rate limit counts it: the IPv4 address, or an IPv6 address's
    /// /64 prefix (one host is commonly given a whole /64, so a single address would let it
    /// pick a fresh one for each try); `unknown` when the transport has no address.
    var source: String {
        switch remoteAddress {
        case .v4(let address)?:
            return address.host
        case .v6(let address)?:
            let bytes = withUnsafeBytes(of: address.address.sin6_addr) { Array($0) }
            // An IPv4 client of a dual-stack socket (::ffff:a.b.c.d) is its IPv4 address.
            if bytes.prefix(10).allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
                return bytes.suffix(4).map(String.init).joined(separator: ".")
            }
            return bytes.prefix(8).map { String($0, radix: 16) }.joined(separator: ".") + "::/64"
        default:
            return "unknown"
        }
    }
}
